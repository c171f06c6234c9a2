import { DuplicateEntryError, NotFoundError, ValidationError } from '../../../src/shared/domain/domain-error';
import { LeadMother, leadsSetup, written } from './setup';

const taken = new DuplicateEntryError(
  'emailAddress',
  'a lead with this email address already exists for this partner',
);

describe('CreateLeadUseCase (docs/api.md 5)', () => {
  it('stores a PENDING, active lead submitted by API for the vendor of the key and the partner of the path (D26, D27)', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner();
    const now = t.clock.now();
    const view = await t.create.execute(actor, partnerId, LeadMother.details({ source: null, status: null }));
    expect(view.isDuplicate).toBe(false);
    expect(t.leads.stored(view.lead.id!)).toEqual({
      ...LeadMother.details({ source: null, status: null }),
      id: view.lead.id,
      vendorId,
      partnerId,
      approvalStatus: 'PENDING',
      archived: false,
      rejectReason: null,
      rejectComment: null,
      lastActiveAt: null,
      submittedByType: 'API',
      createdAt: now,
      updatedAt: now,
    });
  });

  it("writes the CREATED history entry with the key's prefix, and lead.created, in the same transaction (X12, X17)", async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner();
    await t.seed.webhook(vendorId);
    const view = await t.create.execute(actor, partnerId, LeadMother.details({ source: null, status: null }));
    expect(await t.leadHistory.listForLead(view.lead.id!)).toEqual([
      {
        leadId: view.lead.id,
        action: 'CREATED',
        at: t.clock.now(),
        approvalStatusFrom: null,
        approvalStatusTo: 'PENDING',
        archived: false,
        comment: null,
        changedFields: [],
        apiKeyPrefix: actor.apiKeyPrefix,
      },
    ]);
    const events = t.webhookTables.eventsOf(vendorId);
    expect(events.map((e) => [e.type, e.body.data.id, e.body.data.isDuplicate])).toEqual([
      ['lead.created', view.lead.id, false],
    ]);
  });

  it("is not found for a partner not connected to the caller's vendor (D25), and writes nothing", async () => {
    const t = leadsSetup();
    const { actor } = await t.seed.owner('A');
    const { partnerId: othersPartner } = await t.seed.owner('B');
    await expect(
      t.create.execute(actor, othersPartner, LeadMother.details({ source: null, status: null })),
    ).rejects.toEqual(new NotFoundError('partner'));
    expect(t.leads.table.size).toBe(0);
  });

  it("accepts the vendor's own options of the right kind (D15)", async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner();
    const source = t.leadOptions.add(vendorId, 'source');
    const status = t.leadOptions.add(vendorId, 'status');
    const view = await t.create.execute(actor, partnerId, LeadMother.details({ source, status }));
    expect(view.lead.details).toMatchObject({ source, status });
  });

  it('refuses an email the partner already has, case-insensitively and archived leads included, for this vendor only (D27)', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner('A');
    t.seed.lead(vendorId, partnerId, { emailAddress: 'ada@x.test', archived: true });
    const before = written(t);
    await expect(
      t.create.execute(
        actor,
        partnerId,
        LeadMother.details({ emailAddress: 'ADA@x.test', source: null, status: null }),
      ),
    ).rejects.toEqual(taken);
    expect(written(t)).toEqual(before);

    // the same partner connected to another vendor: that vendor's leads are its own (D27)
    const other = t.seed.vendor('B');
    await t.uow.run(async () =>
      t.partners.connect(other, (await t.partners.findById(partnerId))!, t.clock.now()),
    );
    const view = await t.create.execute(
      { vendorId: other, apiKeyPrefix: null },
      partnerId,
      LeadMother.details({ emailAddress: 'ada@x.test', source: null, status: null }),
    );
    expect(view.lead.vendorId).toBe(other);
  });

  it("refuses a lead that breaks the aggregate's rules, naming every field (D14, D18)", async () => {
    const t = leadsSetup();
    const { partnerId, actor } = await t.seed.owner();
    const error = await t.create
      .execute(actor, partnerId, { firstName: ' ', companyName: 'C', city: 'x'.repeat(256) })
      .catch((e: unknown) => e);
    expect((error as ValidationError).fieldErrors.map((e) => e.field)).toEqual([
      'firstName',
      'emailAddress',
      'city',
    ]);
    expect(t.leads.table.size).toBe(0);
  });

  it('a failed commit leaves no lead, no history entry and no event (X12, X17)', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner();
    await t.seed.webhook(vendorId);
    t.uow.failNextCommit();
    await expect(
      t.create.execute(actor, partnerId, LeadMother.details({ source: null, status: null })),
    ).rejects.toThrow();
    expect(written(t)).toEqual({ leads: [], history: [], contacts: [], events: [] });
  });
});

describe('ChangeLeadUseCase: ReplaceLeadUseCase and UpdateLeadUseCase (docs/api.md 8, 9)', () => {
  async function stored() {
    const t = leadsSetup();
    const owner = await t.seed.owner();
    await t.seed.webhook(owner.vendorId);
    const lead = t.seed.lead(owner.vendorId, owner.partnerId);
    return { t, ...owner, lead };
  }

  it('PATCH changes only the fields present, null clears; updatedAt moves; UPDATED entry and lead.updated list the fields (D29, D34, X12, X17)', async () => {
    const { t, vendorId, actor, lead } = await stored();
    const now = t.clock.advance(1_000);
    const view = await t.update.execute(actor, lead.id!, { city: 'Paris', lastName: null });
    expect(t.leads.stored(lead.id!)).toEqual({
      ...lead.snapshot(),
      city: 'Paris',
      lastName: null,
      updatedAt: now,
    });
    expect(view.lead.updatedAt).toEqual(now);
    expect(await t.leadHistory.listForLead(lead.id!)).toEqual([
      expect.objectContaining({
        action: 'UPDATED',
        at: now,
        changedFields: ['lastName', 'city'],
        apiKeyPrefix: actor.apiKeyPrefix,
      }),
    ]);
    expect(t.webhookTables.eventsOf(vendorId).map((e) => [e.type, e.body.data.changedFields])).toEqual([
      ['lead.updated', ['lastName', 'city']],
    ]);
  });

  it('PUT clears every writable field it leaves out (D29)', async () => {
    const { t, actor, lead } = await stored();
    await t.replace.execute(actor, lead.id!, {
      firstName: 'Ada',
      emailAddress: lead.details.emailAddress,
      companyName: 'C',
    });
    expect(t.leads.stored(lead.id!)).toMatchObject({
      firstName: 'Ada',
      companyName: 'C',
      lastName: null,
      city: null,
      leadAge: null,
    });
    expect((await t.leadHistory.listForLead(lead.id!))[0]).toMatchObject({ action: 'REPLACED' });
  });

  it('a write that changes nothing writes nothing: updatedAt stays, no entry, no event (D34)', async () => {
    const { t, vendorId, actor, lead } = await stored();
    t.clock.advance(1_000);
    await t.update.execute(actor, lead.id!, {});
    await t.update.execute(actor, lead.id!, { city: lead.details.city });
    const view = await t.replace.execute(actor, lead.id!, lead.details);
    expect(view.lead.updatedAt).toEqual(lead.updatedAt);
    expect(t.leads.stored(lead.id!)).toEqual(lead.snapshot());
    expect(t.leadHistory.all()).toEqual([]);
    expect(t.webhookTables.eventsOf(vendorId)).toEqual([]);
  });

  it('changes an archived, approved or rejected lead without touching its state (D31)', async () => {
    const { t, vendorId, partnerId, actor } = await stored();
    const lead = t.seed.lead(vendorId, partnerId, {
      approvalStatus: 'REJECTED',
      rejectComment: 'no',
      archived: true,
      emailAddress: 'rejected@x.test',
    });
    await t.update.execute(actor, lead.id!, { city: 'Rome' });
    expect(t.leads.stored(lead.id!)).toMatchObject({
      city: 'Rome',
      approvalStatus: 'REJECTED',
      archived: true,
      rejectComment: 'no',
    });
  });

  it("is not found for another vendor's lead, like a missing one (D27)", async () => {
    const { t, lead } = await stored();
    const { actor: stranger } = await t.seed.owner('Other');
    for (const [actor, id] of [
      [stranger, lead.id!],
      [stranger, lead.id! + 1],
    ] as const) {
      await expect(t.update.execute(actor, id, { city: 'X' })).rejects.toEqual(new NotFoundError('lead'));
      await expect(t.replace.execute(actor, id, lead.details)).rejects.toEqual(new NotFoundError('lead'));
    }
    expect(t.leads.stored(lead.id!)).toEqual(lead.snapshot());
  });

  it('a new email the partner already has is DUPLICATE_ENTRY, and the history entry written first is rolled back (D27, X12)', async () => {
    const { t, vendorId, partnerId, actor, lead } = await stored();
    t.seed.lead(vendorId, partnerId, { emailAddress: 'grace@x.test' });
    const before = written(t);
    await expect(
      t.update.execute(actor, lead.id!, { emailAddress: 'Grace@X.test', city: 'Oslo' }),
    ).rejects.toEqual(taken);
    expect(written(t)).toEqual(before);
  });

  it('PUT takes the same steps: a new email the partner already has is DUPLICATE_ENTRY and writes nothing (D27, X12)', async () => {
    const { t, vendorId, partnerId, actor, lead } = await stored();
    t.seed.lead(vendorId, partnerId, { emailAddress: 'grace@x.test' });
    const before = written(t);
    await expect(
      t.replace.execute(actor, lead.id!, { ...lead.details, emailAddress: 'GRACE@x.test' }),
    ).rejects.toEqual(taken);
    expect(written(t)).toEqual(before);
  });

  it('a failed commit leaves the lead, its history and the events as they were (X12, X17)', async () => {
    const { t, actor, lead } = await stored();
    const before = written(t);
    t.clock.advance(1_000);
    t.uow.failNextCommit();
    await expect(t.update.execute(actor, lead.id!, { city: 'Lima' })).rejects.toThrow('the commit failed');
    expect(written(t)).toEqual(before);
  });

  it('keeping its own email in another case is no duplicate (D13, D27)', async () => {
    const { t, actor, lead } = await stored();
    await t.update.execute(actor, lead.id!, { emailAddress: lead.details.emailAddress.toUpperCase() });
    expect(t.leads.stored(lead.id!)!.emailAddress).toBe(lead.details.emailAddress.toUpperCase());
  });

  it('refuses null for a required field on PATCH (D29)', async () => {
    const { t, actor, lead } = await stored();
    await expect(
      t.update.execute(actor, lead.id!, { firstName: null as unknown as string }),
    ).rejects.toBeInstanceOf(ValidationError);
    expect(t.leads.stored(lead.id!)).toEqual(lead.snapshot());
  });
});
