import { ApprovalStatus } from '../../../src/leads/domain/lead-transitions';
import { InvalidStateTransitionError, NotFoundError } from '../../../src/shared/domain/domain-error';
import { leadsSetup, written } from './setup';

async function withLead(approvalStatus: ApprovalStatus = 'PENDING', archived = false) {
  const t = leadsSetup();
  const owner = await t.seed.owner();
  await t.seed.webhook(owner.vendorId);
  const lead = t.seed.lead(owner.vendorId, owner.partnerId, {
    approvalStatus,
    archived,
    rejectComment: approvalStatus === 'REJECTED' ? 'first' : null,
  });
  return { t, ...owner, lead };
}

describe('ApproveLeadUseCase (docs/api.md 10)', () => {
  it('approves a PENDING lead and converts it into one contact with its person and company fields', async () => {
    const { t, vendorId, partnerId, actor, lead } = await withLead();
    const now = t.clock.advance(1_000);
    const approval = await t.approve.execute(actor, lead.id!);
    expect(t.leads.stored(lead.id!)).toMatchObject({ approvalStatus: 'APPROVED', updatedAt: now });
    const contacts = t.contacts.ofVendor(vendorId);
    expect(contacts).toEqual([
      expect.objectContaining({
        id: approval.contactId,
        vendorId,
        partnerId,
        leadId: lead.id,
        firstName: lead.details.firstName,
        emailAddress: lead.details.emailAddress,
        emailNormalized: lead.emailNormalized,
        companyName: lead.details.companyName,
        createdAt: now,
      }),
    ]);
    // its own contact does not make it a duplicate (D28)
    expect(approval.lead.isDuplicate).toBe(false);
  });

  it('writes APPROVED in the history and lead.approved with the contactId (X12, X17)', async () => {
    const { t, vendorId, actor, lead } = await withLead();
    const approval = await t.approve.execute(actor, lead.id!);
    expect(
      (await t.leadHistory.listForLead(lead.id!)).map((e) => [
        e.action,
        e.approvalStatusFrom,
        e.approvalStatusTo,
        e.apiKeyPrefix,
      ]),
    ).toEqual([['APPROVED', 'PENDING', 'APPROVED', actor.apiKeyPrefix]]);
    expect(t.webhookTables.eventsOf(vendorId).map((e) => [e.type, e.body.data.contactId])).toEqual([
      ['lead.approved', approval.contactId],
    ]);
  });

  it('an approve of an APPROVED lead returns the same contact and writes nothing: no entry, no event, updatedAt kept (D32, D34)', async () => {
    const { t, vendorId, actor, lead } = await withLead();
    const first = await t.approve.execute(actor, lead.id!);
    const after = written(t);
    t.clock.advance(1_000);
    const again = await t.approve.execute(actor, lead.id!);
    expect(again.contactId).toBe(first.contactId);
    expect(written(t)).toEqual(after);
    expect(t.webhookTables.eventsOf(vendorId)).toHaveLength(1);
  });

  it('concurrent approves of one lead make one contact, and all return it (D32)', async () => {
    const { t, vendorId, actor, lead } = await withLead();
    const results = await Promise.all([1, 2, 3].map(() => t.approve.execute(actor, lead.id!)));
    expect(new Set(results.map((r) => r.contactId)).size).toBe(1);
    expect(t.contacts.ofVendor(vendorId)).toHaveLength(1);
    expect(t.leadHistory.all()).toHaveLength(1);
  });

  it('an APPROVED lead without a contact gets one, without a new history entry', async () => {
    const { t, vendorId, actor, lead } = await withLead('APPROVED');
    const approval = await t.approve.execute(actor, lead.id!);
    expect(t.contacts.ofVendor(vendorId).map((c) => c.id)).toEqual([approval.contactId]);
    expect(t.leadHistory.all()).toEqual([]);
  });

  it('approving a REJECTED lead is INVALID_STATE_TRANSITION and changes nothing (D30)', async () => {
    const { t, actor, lead } = await withLead('REJECTED');
    const before = written(t);
    await expect(t.approve.execute(actor, lead.id!)).rejects.toEqual(
      new InvalidStateTransitionError('REJECTED', 'approve'),
    );
    expect(written(t)).toEqual(before);
  });

  it('approves an archived lead, which stays archived (D31)', async () => {
    const { t, actor, lead } = await withLead('PENDING', true);
    await t.approve.execute(actor, lead.id!);
    expect(t.leads.stored(lead.id!)).toMatchObject({ approvalStatus: 'APPROVED', archived: true });
  });

  it('a failed commit leaves the lead PENDING, with no contact, entry or event', async () => {
    const { t, actor, lead } = await withLead();
    const before = written(t);
    t.uow.failNextCommit();
    await expect(t.approve.execute(actor, lead.id!)).rejects.toThrow();
    expect(written(t)).toEqual(before);
  });
});

describe('RejectLeadUseCase (docs/api.md 11)', () => {
  it('rejects a PENDING lead with its comment; REJECTED entry and lead.rejected (X12, X17)', async () => {
    const { t, vendorId, actor, lead } = await withLead();
    const now = t.clock.advance(1_000);
    const view = await t.reject.execute(actor, lead.id!, 'too small');
    expect(t.leads.stored(lead.id!)).toMatchObject({
      approvalStatus: 'REJECTED',
      rejectComment: 'too small',
      updatedAt: now,
    });
    expect(view.lead.rejectComment).toBe('too small');
    expect((await t.leadHistory.listForLead(lead.id!)).map((e) => [e.action, e.comment])).toEqual([
      ['REJECTED', 'too small'],
    ]);
    expect(t.webhookTables.eventsOf(vendorId).map((e) => [e.type, e.body.data.rejectComment])).toEqual([
      ['lead.rejected', 'too small'],
    ]);
  });

  it('a reject of a REJECTED lead keeps the first comment and writes nothing (D32, D34)', async () => {
    const { t, actor, lead } = await withLead();
    await t.reject.execute(actor, lead.id!, 'first');
    const after = written(t);
    t.clock.advance(1_000);
    const view = await t.reject.execute(actor, lead.id!, 'second');
    expect(view.lead.rejectComment).toBe('first');
    expect(written(t)).toEqual(after);
  });

  it('concurrent rejects keep exactly one comment: the first to land (D32)', async () => {
    const { t, actor, lead } = await withLead();
    await Promise.all(['a', 'b', 'c'].map((comment) => t.reject.execute(actor, lead.id!, comment)));
    expect(t.leads.stored(lead.id!)!.rejectComment).toBe('a');
    expect(t.leadHistory.all()).toHaveLength(1);
  });

  it('an approve and a reject racing give one success and one INVALID_STATE_TRANSITION (D30, D32)', async () => {
    const { t, actor, lead } = await withLead();
    const results = await Promise.allSettled([
      t.approve.execute(actor, lead.id!),
      t.reject.execute(actor, lead.id!, null),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidStateTransitionError);
  });

  it('rejecting an APPROVED lead is INVALID_STATE_TRANSITION (D30)', async () => {
    const { t, actor, lead } = await withLead('APPROVED');
    await expect(t.reject.execute(actor, lead.id!, 'late')).rejects.toEqual(
      new InvalidStateTransitionError('APPROVED', 'reject'),
    );
    expect(t.leads.stored(lead.id!)!.approvalStatus).toBe('APPROVED');
  });
});

describe('ArchiveLeadUseCase (docs/api.md 12)', () => {
  it.each(['PENDING', 'APPROVED', 'REJECTED'] as const)(
    'archives a %s lead, keeping its approvalStatus (D31)',
    async (status) => {
      const { t, vendorId, actor, lead } = await withLead(status);
      const now = t.clock.advance(1_000);
      await t.archive.execute(actor, lead.id!);
      expect(t.leads.stored(lead.id!)).toMatchObject({
        archived: true,
        approvalStatus: status,
        updatedAt: now,
      });
      expect((await t.leadHistory.listForLead(lead.id!)).map((e) => e.action)).toEqual(['ARCHIVED']);
      expect(t.webhookTables.eventsOf(vendorId).map((e) => e.type)).toEqual(['lead.archived']);
    },
  );

  it('archiving an archived lead changes nothing and writes nothing (D34)', async () => {
    const { t, actor, lead } = await withLead('PENDING', true);
    const before = written(t);
    t.clock.advance(1_000);
    await t.archive.execute(actor, lead.id!);
    expect(written(t)).toEqual(before);
  });
});

describe('the state operations and vendor scoping (D27)', () => {
  it.each(['approve', 'reject', 'archive'] as const)(
    "%s of another vendor's lead is not found, like a missing one",
    async (operation) => {
      const { t, lead } = await withLead();
      const { actor: stranger } = await t.seed.owner('Other');
      const run = (id: number) =>
        operation === 'reject' ? t.reject.execute(stranger, id, null) : t[operation].execute(stranger, id);
      await expect(run(lead.id!)).rejects.toEqual(new NotFoundError('lead'));
      await expect(run(lead.id! + 1)).rejects.toEqual(new NotFoundError('lead'));
      expect(t.leads.stored(lead.id!)).toEqual(lead.snapshot());
    },
  );
});
