import { Contact } from '../../../src/contacts/domain/contact';
import { NotFoundError } from '../../../src/shared/domain/domain-error';
import { contactFromLead, LeadMother, leadsSetup, listQuery } from './setup';

describe('GetLeadUseCase (docs/api.md 7)', () => {
  it('returns the lead with isDuplicate', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner();
    const lead = t.seed.lead(vendorId, partnerId);
    const view = await t.get.execute(vendorId, lead.id!);
    expect(view.lead.snapshot()).toEqual(lead.snapshot());
    expect(view.isDuplicate).toBe(false);
  });

  it("is not found for another vendor's lead, exactly like a missing one (D27)", async () => {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner('A');
    const { vendorId: other } = await t.seed.owner('B');
    const lead = t.seed.lead(vendorId, partnerId);
    await expect(t.get.execute(other, lead.id!)).rejects.toEqual(new NotFoundError('lead'));
    await expect(t.get.execute(vendorId, lead.id! + 1)).rejects.toEqual(new NotFoundError('lead'));
  });
});

describe('isDuplicate (D28)', () => {
  async function twoPartners() {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner('A');
    const { partner: second } = await t.seed.partner([vendorId], []);
    return { t, vendorId, partnerId, secondPartner: second.id };
  }
  const isDuplicate = async (t: ReturnType<typeof leadsSetup>, vendorId: number, id: number) =>
    (await t.get.execute(vendorId, id)).isDuplicate;

  it('is true when another active lead of the vendor, of any of its partners, has the email in any case', async () => {
    const { t, vendorId, partnerId, secondPartner } = await twoPartners();
    const a = t.seed.lead(vendorId, partnerId, { emailAddress: 'ada@x.test' });
    const b = t.seed.lead(vendorId, secondPartner, { emailAddress: 'ADA@x.test' });
    expect(await isDuplicate(t, vendorId, a.id!)).toBe(true);
    expect(await isDuplicate(t, vendorId, b.id!)).toBe(true);
  });

  it("ignores archived leads and other vendors' leads and contacts", async () => {
    const { t, vendorId, partnerId, secondPartner } = await twoPartners();
    const { vendorId: other, partnerId: othersPartner } = await t.seed.owner('B');
    const a = t.seed.lead(vendorId, partnerId, { emailAddress: 'ada@x.test' });
    t.seed.lead(vendorId, secondPartner, { emailAddress: 'ada@x.test', archived: true });
    const foreign = t.seed.lead(other, othersPartner, { emailAddress: 'ada@x.test' });
    await t.uow.run(() => t.contacts.insertOnce(contactFromLead(foreign, t.clock.now())));
    expect(await isDuplicate(t, vendorId, a.id!)).toBe(false);
  });

  it("is true for a contact of the vendor from another lead, never for the lead's own contact", async () => {
    const { t, vendorId, partnerId, secondPartner } = await twoPartners();
    const a = t.seed.lead(vendorId, partnerId, { emailAddress: 'ada@x.test' });
    await t.uow.run(() => t.contacts.insertOnce(contactFromLead(a, t.clock.now())));
    expect(await isDuplicate(t, vendorId, a.id!)).toBe(false);
    const b = t.seed.lead(vendorId, secondPartner, { emailAddress: 'ada@x.test', archived: true });
    expect(await isDuplicate(t, vendorId, b.id!)).toBe(true);
  });

  it('is computed for a whole page in one call, never stored', async () => {
    const { t, vendorId, partnerId } = await twoPartners();
    const a = t.seed.lead(vendorId, partnerId, { emailAddress: 'ada@x.test' });
    const lone = t.seed.lead(vendorId, partnerId, { emailAddress: 'lone@x.test' });
    let calls = 0;
    const original = t.leads.duplicatesAmong.bind(t.leads);
    t.leads.duplicatesAmong = (v, ids) => ((calls += 1), original(v, ids));
    const { partner: second } = await t.seed.partner([vendorId], []);
    t.seed.lead(vendorId, second.id, { emailAddress: 'ada@x.test' });
    const page = await t.list.execute(listQuery(vendorId, partnerId, { sortBy: 'id', sortDirection: 'asc' }));
    expect(page.data.map((v) => [v.lead.id, v.isDuplicate])).toEqual([
      [a.id, true],
      [lone.id, false],
    ]);
    expect(calls).toBe(1);
  });
});

describe('contactFromLead', () => {
  it("copies the vendor, partner, lead and the lead's person and company fields, not its state or lead-only fields", () => {
    const lead = LeadMother.approved({ id: 9, vendorId: 2, partnerId: 3 });
    const now = new Date('2031-01-01T00:00:00.000Z');
    const contact: Contact = contactFromLead(lead, now);
    const d = lead.details;
    expect(contact.snapshot()).toEqual({
      id: undefined,
      vendorId: 2,
      partnerId: 3,
      leadId: 9,
      firstName: d.firstName,
      lastName: d.lastName,
      emailAddress: d.emailAddress,
      emailNormalized: lead.emailNormalized,
      phoneNumber: d.phoneNumber,
      linkedInUrl: d.linkedInUrl,
      jobTitle: d.jobTitle,
      companyName: d.companyName,
      websiteUrl: d.websiteUrl,
      companySize: d.companySize,
      industry: d.industry,
      city: d.city,
      state: d.state,
      country: d.country,
      createdAt: now,
    });
  });
});

describe('GetLeadHistoryUseCase (X12)', () => {
  it('lists the entries oldest first, across create, update and state changes', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId, actor } = await t.seed.owner();
    const { lead } = await t.create.execute(
      actor,
      partnerId,
      LeadMother.details({ source: null, status: null }),
    );
    await t.update.execute(actor, lead.id!, { city: 'Paris' });
    await t.approve.execute(actor, lead.id!);
    await t.archive.execute(actor, lead.id!);
    const history = await t.history.execute(vendorId, lead.id!);
    expect(history.map((e) => e.action)).toEqual(['CREATED', 'UPDATED', 'APPROVED', 'ARCHIVED']);
  });

  it("is not found for another vendor's lead, as reading it (D27)", async () => {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner('A');
    const { vendorId: other } = await t.seed.owner('B');
    const lead = t.seed.lead(vendorId, partnerId);
    await expect(t.history.execute(other, lead.id!)).rejects.toEqual(new NotFoundError('lead'));
  });
});

describe('ListLeadsUseCase (docs/api.md 6, D33)', () => {
  it("lists only the caller's vendor's leads of the partner (D27)", async () => {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner('A');
    const other = t.seed.vendor('B');
    await t.uow.run(async () =>
      t.partners.connect(other, (await t.partners.findById(partnerId))!, t.clock.now()),
    );
    const mine = t.seed.lead(vendorId, partnerId, { emailAddress: 'a@x.test' });
    t.seed.lead(other, partnerId, { emailAddress: 'b@x.test' });
    const page = await t.list.execute(listQuery(vendorId, partnerId));
    expect(page).toMatchObject({ page: 0, perPage: 20, totalItems: 1 });
    expect(page.data.map((v) => v.lead.id)).toEqual([mine.id]);
  });

  it("is not found for a partner not connected to the caller's vendor (D25)", async () => {
    const t = leadsSetup();
    const { vendorId } = await t.seed.owner('A');
    const { partnerId: othersPartner } = await t.seed.owner('B');
    await expect(t.list.execute(listQuery(vendorId, othersPartner))).rejects.toEqual(
      new NotFoundError('partner'),
    );
  });

  it('combines the filters with AND and breaks ties by id in the sort direction (D33)', async () => {
    const t = leadsSetup();
    const { vendorId, partnerId } = await t.seed.owner();
    const at = new Date('2026-01-10T08:00:00.000Z');
    const make = (email: string, overrides = {}) =>
      t.seed.lead(vendorId, partnerId, { emailAddress: email, createdAt: at, updatedAt: at, ...overrides });
    const a = make('ann@x.test', { firstName: 'Ann', status: 3 });
    const b = make('bob@x.test', { firstName: 'Bob', status: 3 });
    const c = make('an_na@x.test', { firstName: 'Zed', status: 4 });
    make('archived@x.test', { firstName: 'Ann', archived: true, status: 3 });
    const approved = make('approved@x.test', { firstName: 'Ann', approvalStatus: 'APPROVED', status: 3 });
    const ids = async (overrides: Parameters<typeof listQuery>[2]) =>
      (await t.list.execute(listQuery(vendorId, partnerId, overrides))).data.map((v) => v.lead.id);
    expect(await ids({ sortDirection: 'desc' })).toEqual([approved.id, c.id, b.id, a.id]);
    expect(await ids({ keyword: 'an_', sortDirection: 'asc' })).toEqual([c.id]);
    expect(await ids({ archived: true })).toHaveLength(1);
    expect(await ids({ statuses: [99] })).toEqual([]);
  });
});
