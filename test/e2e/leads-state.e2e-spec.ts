import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/shared/domain/clock';
import { TickingClock } from '../support/lead-clock';
import {
  LEAD_FIELDS,
  LeadJson,
  countRows,
  createLead,
  errorFields,
  vendorWithPartner,
  VendorWithPartner,
} from '../support/lead-fixtures';
import { ISO_DATETIME, TestApp, createTestApp } from '../support/test-app';
/** docs/api.md endpoints 10 (approve), 11 (reject), 12 (archive) and "States and transitions" (D30-D32, D34, D38). */
describe('Leads: approve, reject, archive', () => {
  let t: TestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    // every write gets a later time, so "updatedAt moved / did not move" (D34) is exact
    t = await createTestApp({ override: (b) => b.overrideProvider(Clock).useValue(new TickingClock()) });
    app = t.app;
  });
  afterAll(() => t.close());

  async function leadOf(v: VendorWithPartner, overrides: Record<string, unknown> = {}): Promise<LeadJson> {
    return createLead(t.http, v.apiKey, v.partnerId, overrides);
  }

  const contactsOf = (leadId: number) => countRows(app, 'contacts', 'lead_id = ?', [leadId]);
  const read = async (v: VendorWithPartner, id: number) =>
    (await v.api.get(`/leads/${id}`)).body.data as LeadJson;

  async function expectConflict(response: { status: number; body: unknown }): Promise<void> {
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      message: 'INVALID_STATE_TRANSITION',
      status: 409,
      success: false,
      errors: [],
    });
    expect((response.body as { timestamp: string }).timestamp).toMatch(ISO_DATETIME);
  }

  it.each([
    ['GET', ''],
    ['PUT', ''],
    ['PATCH', ''],
    ['PUT', '/approve'],
    ['PUT', '/reject'],
    ['PUT', '/archive'],
  ])(
    '%s /leads/{leadId}%s refuses every malformed leadId naming leadId (D12, D39)',
    async (method, suffix) => {
      const v = await vendorWithPartner(t);
      for (const leadId of ['abc', '0', '1.5', '-1', '9007199254740992', '1e3']) {
        const path = `/leads/${leadId}${suffix}`;
        const call =
          method === 'GET'
            ? v.api.get(path)
            : method === 'PATCH'
              ? v.api.patch(path).send({})
              : v.api.put(path);
        const response =
          suffix === '' && method === 'PUT'
            ? await call.send({ firstName: 'a', emailAddress: 'a@b.test', companyName: 'c' })
            : await call;
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(errorFields(response.body)).toEqual(['leadId']);
      }
    },
  );

  describe('PUT /leads/{leadId}/approve (docs/api.md 10)', () => {
    it('approves a PENDING lead, converts it into one contact and answers LEAD_APPROVE_SUCCESSFUL with {lead, contactId}', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v, { lastName: 'Lovelace', jobTitle: 'Analyst', city: 'London' });
      const response = await v.api.put(`/leads/${lead.id}/approve`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: 'LEAD_APPROVE_SUCCESSFUL' });
      expect(Object.keys(response.body.data).sort()).toEqual(['contactId', 'lead']);
      expect(Object.keys(response.body.data.lead).sort()).toEqual([...LEAD_FIELDS].sort());
      expect(response.body.data.contactId).toEqual(expect.any(Number));
      expect(response.body.data.lead).toEqual({
        ...lead,
        approvalStatus: 'APPROVED',
        updatedAt: response.body.data.lead.updatedAt,
      });
      expect(Date.parse(response.body.data.lead.updatedAt)).toBeGreaterThan(Date.parse(lead.updatedAt)); // D34
      expect(await read(v, lead.id)).toEqual(response.body.data.lead);
      const [contact] = (await app
        .get(DataSource)
        .query(
          'SELECT id, lead_id, partner_id, first_name, last_name, email_address, company_name, job_title, city FROM contacts WHERE lead_id = ?',
          [lead.id],
        )) as Record<string, unknown>[];
      expect(contact).toEqual({
        id: response.body.data.contactId,
        lead_id: lead.id,
        partner_id: v.partnerId,
        first_name: lead.firstName,
        last_name: 'Lovelace',
        email_address: lead.emailAddress,
        company_name: lead.companyName,
        job_title: 'Analyst',
        city: 'London',
      });
    });

    it('answers a retry with the same contact and creates no second one, updatedAt unchanged (D32, D34)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const first = await v.api.put(`/leads/${lead.id}/approve`);
      const second = await v.api.put(`/leads/${lead.id}/approve`);
      expect(second.status).toBe(200);
      expect(second.body.message).toBe('LEAD_APPROVE_SUCCESSFUL');
      expect(second.body.data).toEqual(first.body.data);
      expect(await contactsOf(lead.id)).toBe(1);
    });

    it('refuses a REJECTED lead with 409 INVALID_STATE_TRANSITION, changing nothing (D30)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const rejected = (await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'no' })).body
        .data as LeadJson;
      await expectConflict(await v.api.put(`/leads/${lead.id}/approve`));
      expect(await read(v, lead.id)).toEqual(rejected);
      expect(await contactsOf(lead.id)).toBe(0);
    });

    it('approves an archived lead, which stays archived (D31)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/archive`);
      const response = await v.api.put(`/leads/${lead.id}/approve`);
      expect(response.status).toBe(200);
      expect(response.body.data.lead).toMatchObject({ approvalStatus: 'APPROVED', archived: true });
      expect(await contactsOf(lead.id)).toBe(1);
    });

    it('ignores any body: JSON, invalid JSON, another content type (D38)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const responses = [
        await v.api.put(`/leads/${lead.id}/approve`).send({ approvalStatus: 'REJECTED', contactId: 1 }),
        await v.api.put(`/leads/${lead.id}/approve`).set('Content-Type', 'application/json').send('{nope'),
        await v.api.put(`/leads/${lead.id}/approve`).set('Content-Type', 'text/plain').send('hello'),
      ];
      for (const response of responses) {
        expect(response.status).toBe(200);
        expect(response.body.data.lead.approvalStatus).toBe('APPROVED');
        expect(response.body.data.contactId).toBe(responses[0]!.body.data.contactId);
      }
    });

    it("answers 404 for another vendor's lead and a missing one, converting nothing (D27)", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await leadOf(other);
      for (const id of [foreign.id, 987654321]) {
        const response = await v.api.put(`/leads/${id}/approve`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ message: 'RESOURCE_NOT_FOUND', errors: [] });
      }
      expect(await read(other, foreign.id)).toEqual(foreign);
      expect(await contactsOf(foreign.id)).toBe(0);
    });

    it.each(['abc', '0', '1.5', '-1', '9007199254740992'])(
      'refuses the path leadId %s naming leadId (D12)',
      async (id) => {
        const v = await vendorWithPartner(t);
        const response = await v.api.put(`/leads/${id}/approve`);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(errorFields(response.body)).toEqual(['leadId']);
      },
    );
  });

  describe('PUT /leads/{leadId}/reject (docs/api.md 11)', () => {
    it('rejects a PENDING lead, recording the comment, with message null', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const response = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'Not our market' });
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
      expect(Object.keys(response.body.data).sort()).toEqual([...LEAD_FIELDS].sort());
      expect(response.body.data).toEqual({
        ...lead,
        approvalStatus: 'REJECTED',
        rejectComment: 'Not our market',
        updatedAt: response.body.data.updatedAt,
      });
      expect(response.body.data.rejectReason).toBeNull();
      expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(lead.updatedAt)); // D34
      expect(await read(v, lead.id)).toEqual(response.body.data);
    });

    it.each([
      ['no body at all', undefined],
      ['an empty object', {}],
      ['a null comment', { comment: null }],
    ])('rejects with %s as "no comment" (D38)', async (_case, body) => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const request = v.api.put(`/leads/${lead.id}/reject`);
      const response = body === undefined ? await request : await request.send(body);
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ approvalStatus: 'REJECTED', rejectComment: null });
    });

    it('keeps the first comment when a rejected lead is rejected again, updatedAt unchanged (D32, D34)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const first = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'first' });
      const second = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'second' });
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual(first.body.data);
      expect((await read(v, lead.id)).rejectComment).toBe('first');
    });

    it('keeps "no comment" when the first reject had none (first write wins, D32)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/reject`);
      const again = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'late reason' });
      expect(again.body.data.rejectComment).toBeNull();
    });

    it('refuses an APPROVED (converted) lead with 409 INVALID_STATE_TRANSITION, changing nothing (D30)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const approved = (await v.api.put(`/leads/${lead.id}/approve`)).body.data.lead as LeadJson;
      await expectConflict(await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'too late' }));
      expect(await read(v, lead.id)).toEqual(approved);
    });

    it('rejects an archived lead, which stays archived (D31)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/archive`);
      const response = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'x' });
      expect(response.body.data).toMatchObject({
        approvalStatus: 'REJECTED',
        archived: true,
        rejectComment: 'x',
      });
    });

    it('allows a comment of 5,000 characters and refuses 5,001 or a non-string, changing nothing (D14, D17)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      for (const comment of ['c'.repeat(5001), 42, ['a'], { text: 'a' }]) {
        const response = await v.api.put(`/leads/${lead.id}/reject`).send({ comment });
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(errorFields(response.body)).toEqual(['comment']);
      }
      expect(await read(v, lead.id)).toEqual(lead);
      const ok = await v.api.put(`/leads/${lead.id}/reject`).send({ comment: '✓'.repeat(5000) });
      expect(ok.body.data.rejectComment).toBe('✓'.repeat(5000));
    });

    it('answers INVALID_REQUEST for a body that is sent but not JSON, changing nothing (D6)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const response = await v.api
        .put(`/leads/${lead.id}/reject`)
        .set('Content-Type', 'application/json')
        .send('{"comment":');
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'INVALID_REQUEST', errors: [] });
      expect(await read(v, lead.id)).toEqual(lead);
    });

    it("answers 404 for another vendor's lead and a missing one (D27)", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await leadOf(other);
      for (const id of [foreign.id, 987654321]) {
        const response = await v.api.put(`/leads/${id}/reject`).send({ comment: 'x' });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ message: 'RESOURCE_NOT_FOUND', errors: [] });
      }
      expect(await read(other, foreign.id)).toEqual(foreign);
    });

    it('lists path and body errors together (D18, D37)', async () => {
      const v = await vendorWithPartner(t);
      const response = await v.api.put('/leads/x/reject').send({ comment: 1 });
      expect(errorFields(response.body)).toEqual(['leadId', 'comment']);
    });
  });

  describe('PUT /leads/{leadId}/archive (docs/api.md 12)', () => {
    it.each(['PENDING', 'APPROVED', 'REJECTED'])(
      'archives a %s lead, approvalStatus unchanged (D31)',
      async (status) => {
        const v = await vendorWithPartner(t);
        const lead = await leadOf(v);
        if (status === 'APPROVED') await v.api.put(`/leads/${lead.id}/approve`);
        if (status === 'REJECTED') await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'r' });
        const before = await read(v, lead.id);
        const response = await v.api.put(`/leads/${lead.id}/archive`);
        expect(response.status).toBe(200);
        expect(response.body.message).toBeNull();
        expect(response.body.data).toEqual({
          ...before,
          archived: true,
          updatedAt: response.body.data.updatedAt,
        });
        expect(Date.parse(response.body.data.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt)); // D34
        expect(await read(v, lead.id)).toEqual(response.body.data);
      },
    );

    it('succeeds on an archived lead and changes nothing, not even updatedAt (docs/api.md 12, D34)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const first = await v.api.put(`/leads/${lead.id}/archive`);
      const second = await v.api.put(`/leads/${lead.id}/archive`);
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual(first.body.data);
    });

    it('hides the lead from the default listing without deleting it', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/archive`);
      const active = await v.api.get(`/partners/${v.partnerId}/leads`);
      expect(active.body.data.data.map((l: LeadJson) => l.id)).not.toContain(lead.id);
      const archived = await v.api.get(`/partners/${v.partnerId}/leads?archived=true`);
      expect(archived.body.data.data.map((l: LeadJson) => l.id)).toEqual([lead.id]);
      expect((await v.api.get(`/leads/${lead.id}`)).status).toBe(200);
    });

    it('ignores any body (D38)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const response = await v.api
        .put(`/leads/${lead.id}/archive`)
        .set('Content-Type', 'application/json')
        .send('{"archived": false');
      expect(response.status).toBe(200);
      expect(response.body.data.archived).toBe(true);
    });

    it("answers 404 for another vendor's lead and a missing one; D12 path ids", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await leadOf(other);
      for (const id of [foreign.id, 987654321]) {
        const response = await v.api.put(`/leads/${id}/archive`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ message: 'RESOURCE_NOT_FOUND', errors: [] });
      }
      expect(await read(other, foreign.id)).toEqual(foreign);
      const bad = await v.api.put('/leads/-1/archive');
      expect(errorFields(bad.body)).toEqual(['leadId']);
    });
  });
});
