import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { LeadJson, VendorApi, createLead, invitePartner, vendorApi } from '../support/lead-fixtures';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';

/** D28: isDuplicate, computed when a lead is read, on single-lead responses and in listings. */
describe('Lead.isDuplicate (D28)', () => {
  let t: TestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
  });
  afterAll(() => t.close());

  interface Vendor {
    apiKey: string;
    api: VendorApi;
  }

  async function vendor(): Promise<Vendor> {
    const { apiKey } = await createVendor(app);
    return { apiKey, api: vendorApi(t.http, apiKey) };
  }

  const flag = async (v: Vendor, id: number) =>
    ((await v.api.get(`/leads/${id}`)).body.data as LeadJson).isDuplicate;

  it('is true when another active lead of the same vendor, on any partner, has the email in any case', async () => {
    const v = await vendor();
    const email = `${unique('Dup')}@Example.test`;
    const p1 = await invitePartner(t.http, v.apiKey);
    const p2 = await invitePartner(t.http, v.apiKey);
    const first = await createLead(t.http, v.apiKey, p1, { emailAddress: email });
    expect(first.isDuplicate).toBe(false);
    const second = await createLead(t.http, v.apiKey, p2, { emailAddress: email.toUpperCase() });
    expect(second.isDuplicate).toBe(true);
    expect(await flag(v, first.id)).toBe(true);
    const listed = await v.api.get(`/partners/${p1}/leads`);
    expect(listed.body.data.data.map((l: LeadJson) => [l.id, l.isDuplicate])).toEqual([[first.id, true]]);
  });

  it('ignores archived leads', async () => {
    const v = await vendor();
    const email = `${unique('dup')}@example.test`;
    const first = await createLead(t.http, v.apiKey, await invitePartner(t.http, v.apiKey), {
      emailAddress: email,
    });
    const second = await createLead(t.http, v.apiKey, await invitePartner(t.http, v.apiKey), {
      emailAddress: email,
    });
    const archived = await v.api.put(`/leads/${second.id}/archive`);
    expect(archived.body.data.isDuplicate).toBe(true); // first is still active
    expect(await flag(v, first.id)).toBe(false);
  });

  it("counts a contact of the vendor, but not the lead's own contact after approval", async () => {
    const v = await vendor();
    const email = `${unique('dup')}@example.test`;
    const converted = await createLead(t.http, v.apiKey, await invitePartner(t.http, v.apiKey), {
      emailAddress: email,
    });
    const approval = await v.api.put(`/leads/${converted.id}/approve`);
    expect(approval.body.data.lead.isDuplicate).toBe(false);
    await v.api.put(`/leads/${converted.id}/archive`);
    const later = await createLead(t.http, v.apiKey, await invitePartner(t.http, v.apiKey), {
      emailAddress: email,
    });
    expect(later.isDuplicate).toBe(true); // only the contact has this email: the converted lead is archived
    expect(await flag(v, converted.id)).toBe(true); // now another active lead has it
  });

  it("never counts another vendor's leads or contacts (D27)", async () => {
    const a = await vendor();
    const b = await vendor();
    const email = `${unique('dup')}@example.test`;
    const ofA = await createLead(t.http, a.apiKey, await invitePartner(t.http, a.apiKey), {
      emailAddress: email,
    });
    await a.api.put(`/leads/${ofA.id}/approve`);
    const ofB = await createLead(t.http, b.apiKey, await invitePartner(t.http, b.apiKey), {
      emailAddress: email,
    });
    expect(ofB.isDuplicate).toBe(false);
    expect(await flag(a, ofA.id)).toBe(false);
  });

  it('follows an email change (computed on read)', async () => {
    const v = await vendor();
    const partner = await invitePartner(t.http, v.apiKey);
    const a = await createLead(t.http, v.apiKey, partner);
    const b = await createLead(t.http, v.apiKey, await invitePartner(t.http, v.apiKey));
    const patched = await v.api.patch(`/leads/${b.id}`).send({ emailAddress: a.emailAddress });
    expect(patched.body.data.isDuplicate).toBe(true);
    expect(await flag(v, a.id)).toBe(true);
  });
});
