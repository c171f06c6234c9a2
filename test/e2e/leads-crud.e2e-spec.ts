import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '../../src/shared/domain/clock';
import { TickingClock } from '../support/lead-clock';
import {
  LEAD_FIELDS,
  LeadJson,
  countRows,
  createLead,
  errorFields,
  invitePartner,
  leadBody,
  vendorApi,
  vendorWithPartner,
} from '../support/lead-fixtures';
import {
  ISO_DATETIME,
  TestApp,
  createLeadOption,
  createTestApp,
  createVendor,
  unique,
} from '../support/test-app';

/** docs/api.md endpoints 5 (create), 7 (get), 8 (replace) and 9 (update). */
describe('Leads: create, get, replace, update', () => {
  let t: TestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    // every write gets a later time, so D34 ("moved" / "did not move") is asserted exactly
    t = await createTestApp({ override: (b) => b.overrideProvider(Clock).useValue(new TickingClock()) });
    app = t.app;
  });
  afterAll(() => t.close());

  const leadsOfVendor = (vendorId: number) => countRows(app, 'leads', 'vendor_id = ?', [vendorId]);

  async function fullBody(vendorId: number): Promise<Record<string, unknown>> {
    return {
      firstName: 'Ada',
      lastName: 'Lovelace',
      emailAddress: `${unique('Ada.')}@Example.test`,
      phoneNumber: '+44 20 7946 0000',
      linkedInUrl: 'https://www.linkedin.example/in/ada',
      companyName: 'Analytical Engines',
      websiteUrl: 'https://engines.example',
      companySize: '11-50',
      industry: 'Computing',
      jobTitle: 'Analyst',
      city: 'London',
      state: 'Greater London',
      country: 'UK',
      source: await createLeadOption(app, vendorId, 'source', 'Web'),
      status: await createLeadOption(app, vendorId, 'status', 'Hot'),
      leadAge: 12,
      productsInterested: 'Difference engine',
      businessImpactMetrics: 'Tables computed without error',
      externalId: '  CRM/0001 ü  ',
    };
  }

  describe('POST /partners/{partnerId}/leads (docs/api.md 5)', () => {
    it('creates the lead with every writable field as sent and answers LEAD_CREATE_SUCCESSFUL (D3, D4)', async () => {
      const v = await vendorWithPartner(t);
      const body = await fullBody(v.vendorId);
      const response = await v.api.post(`/partners/${v.partnerId}/leads`).send(body);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: 'LEAD_CREATE_SUCCESSFUL' });
      const lead = response.body.data as LeadJson;
      expect(Object.keys(lead).sort()).toEqual([...LEAD_FIELDS].sort());
      expect(lead).toMatchObject({ ...body, partnerId: v.partnerId });
      expect(lead.id).toEqual(expect.any(Number));
    });

    it('starts PENDING, active, submitted by API, with no reject data (D26) and ISO datetimes (D1)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await createLead(t.http, v.apiKey, v.partnerId);
      expect(lead).toMatchObject({
        approvalStatus: 'PENDING',
        archived: false,
        submittedByType: 'API',
        rejectReason: null,
        rejectComment: null,
        lastActiveAt: null,
        isDuplicate: false,
      });
      expect(lead.createdAt).toMatch(ISO_DATETIME);
      expect(lead.updatedAt).toBe(lead.createdAt);
    });

    it('returns every optional field left out as null, never omitted (D4)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await createLead(t.http, v.apiKey, v.partnerId);
      for (const field of [
        'lastName',
        'phoneNumber',
        'source',
        'status',
        'leadAge',
        'externalId',
        'productsInterested',
      ]) {
        expect(lead[field]).toBeNull();
      }
    });

    it('stores strings exactly as sent: no trimming, no case change (D13, D14)', async () => {
      const v = await vendorWithPartner(t);
      const email = `${unique('MiXeD')}@Example.TEST`;
      const lead = await createLead(t.http, v.apiKey, v.partnerId, {
        firstName: '  Ada ',
        emailAddress: email,
        city: ' ',
      });
      expect(lead).toMatchObject({ firstName: '  Ada ', emailAddress: email, city: ' ' });
    });

    it('takes ownership from the path and the key, ignoring read-only and unknown fields in the body (D5)', async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const response = await v.api.post(`/partners/${v.partnerId}/leads`).send(
        leadBody({
          id: 999999,
          partnerId: other.partnerId,
          vendorId: other.vendorId,
          approvalStatus: 'APPROVED',
          archived: true,
          isDuplicate: true,
          rejectComment: 'x',
          rejectReason: 'y',
          submittedByType: 'SYSTEM',
          createdAt: '2000-01-01T00:00:00.000Z',
          favouriteColour: 'blue',
        }),
      );
      expect(response.status).toBe(200);
      const lead = response.body.data as LeadJson;
      expect(lead).toMatchObject({
        partnerId: v.partnerId,
        approvalStatus: 'PENDING',
        archived: false,
        rejectComment: null,
        rejectReason: null,
        submittedByType: 'API',
      });
      expect(lead.id).not.toBe(999999);
      expect(lead.createdAt).not.toBe('2000-01-01T00:00:00.000Z');
      expect(lead).not.toHaveProperty('favouriteColour');
      expect(await leadsOfVendor(other.vendorId)).toBe(0);
    });

    it('names every missing required field at once and writes nothing (D18)', async () => {
      const v = await vendorWithPartner(t);
      const response = await v.api.post(`/partners/${v.partnerId}/leads`).send({ lastName: 'x' });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'VALIDATION_FAILED', status: 400, success: false });
      expect(errorFields(response.body).sort()).toEqual(['companyName', 'emailAddress', 'firstName']);
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it.each([
      ['a malformed email', { emailAddress: 'not-an-email' }, 'emailAddress'],
      ['a blank firstName', { firstName: '   ' }, 'firstName'],
      [
        'a firstName of NEXT LINE (U+0085) and an ideographic space only',
        { firstName: '\u0085\u3000' },
        'firstName',
      ],
      [
        'an email whose top-level label is marks only',
        { emailAddress: 'a@example.\u0301\u0301' },
        'emailAddress',
      ],
      ['an empty companyName', { companyName: '' }, 'companyName'],
      ['a null required field', { firstName: null }, 'firstName'],
      ['a negative leadAge (D15)', { leadAge: -1 }, 'leadAge'],
      ['a fractional leadAge', { leadAge: 1.5 }, 'leadAge'],
    ])('refuses %s with VALIDATION_FAILED naming the field', async (_case, overrides, field) => {
      const v = await vendorWithPartner(t);
      const response = await v.api.post(`/partners/${v.partnerId}/leads`).send(leadBody(overrides));
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(response.body)).toEqual([field]);
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it('refuses wrong JSON types, naming each field, never coercing (D17)', async () => {
      const v = await vendorWithPartner(t);
      const response = await v.api.post(`/partners/${v.partnerId}/leads`).send(
        leadBody({
          firstName: 123,
          lastName: true,
          leadAge: '5',
          source: { id: 1 },
          status: '3',
          productsInterested: ['a'],
          externalId: 7,
        }),
      );
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(response.body).sort()).toEqual(
        ['externalId', 'firstName', 'lastName', 'leadAge', 'productsInterested', 'source', 'status'].sort(),
      );
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it('allows 255 code points in a short field and 5,000 in the long texts, refuses one more (D14)', async () => {
      const v = await vendorWithPartner(t);
      const ok = await v.api.post(`/partners/${v.partnerId}/leads`).send(
        leadBody({
          firstName: '😀'.repeat(255), // 510 UTF-16 units, 255 code points
          companyName: 'c'.repeat(255),
          externalId: 'e'.repeat(255),
          productsInterested: 'p'.repeat(5000),
          businessImpactMetrics: '€'.repeat(5000),
        }),
      );
      expect(ok.status).toBe(200);
      expect(ok.body.data.firstName).toBe('😀'.repeat(255));
      expect(ok.body.data.businessImpactMetrics).toBe('€'.repeat(5000));
      const tooLong = await v.api.post(`/partners/${v.partnerId}/leads`).send(
        leadBody({
          firstName: '😀'.repeat(256),
          city: 'c'.repeat(256),
          productsInterested: 'p'.repeat(5001),
          businessImpactMetrics: 'b'.repeat(5001),
        }),
      );
      expect(tooLong.status).toBe(400);
      expect(errorFields(tooLong.body).sort()).toEqual([
        'businessImpactMetrics',
        'city',
        'firstName',
        'productsInterested',
      ]);
      expect(await leadsOfVendor(v.vendorId)).toBe(1);
    });

    it('counts every code point, also variation selectors, and answers 400 rather than a database error (D14)', async () => {
      const v = await vendorWithPartner(t);
      // 256 code points that a UTF-16-based count might see as 128 characters
      const response = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ firstName: 'a\uFE0F'.repeat(128) }));
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(response.body)).toEqual(['firstName']);
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it("accepts source and status ids of the vendor's own options of the matching kind (D15)", async () => {
      const v = await vendorWithPartner(t);
      const source = await createLeadOption(app, v.vendorId, 'source', 'Referral');
      const status = await createLeadOption(app, v.vendorId, 'status', 'Warm');
      const lead = await createLead(t.http, v.apiKey, v.partnerId, { source, status });
      expect(lead).toMatchObject({ source, status });
    });

    it('refuses a source or status of the other kind, of another vendor, or unknown (D15)', async () => {
      const v = await vendorWithPartner(t);
      const other = await createVendor(app);
      const statusOption = await createLeadOption(app, v.vendorId, 'status', 'Hot');
      const otherVendorsStatus = await createLeadOption(app, other.vendorId, 'status', 'Hot');
      const wrongKind = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ source: statusOption }));
      expect(wrongKind.status).toBe(400);
      expect(wrongKind.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(wrongKind.body)).toEqual(['source']);
      const foreign = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ status: otherVendorsStatus, source: 9_007_199_254_740_991 }));
      expect(foreign.status).toBe(400);
      expect(errorFields(foreign.body)).toEqual(['source', 'status']);
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it('lists an unknown option id together with every other offending field, path id included (D15, D18, D37)', async () => {
      const v = await vendorWithPartner(t);
      const withShape = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ firstName: '', status: 999_999, source: 'web' }));
      expect(withShape.status).toBe(400);
      expect(withShape.body.errors).toEqual([
        { field: 'firstName', error: 'must not be empty or blank' },
        { field: 'source', error: 'must be an integer id' },
        { field: 'status', error: "must be the id of one of the vendor's lead status values" },
      ]);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const replace = await v.api
        .put(`/leads/${created.id}`)
        .send(leadBody({ companyName: '   ', source: 999_999 }));
      expect(errorFields(replace.body)).toEqual(['companyName', 'source']);
      const badPath = await v.api.patch('/leads/abc').send({ source: 999_999 });
      expect(errorFields(badPath.body)).toEqual(['leadId', 'source']);
      expect(await leadsOfVendor(v.vendorId)).toBe(1);
    });

    it('answers INVALID_REQUEST for a body that is not JSON, not an object, empty, or not application/json (D6, D38)', async () => {
      const v = await vendorWithPartner(t);
      const path = `/partners/${v.partnerId}/leads`;
      const cases = [
        v.api.post(path).set('Content-Type', 'application/json').send('{"firstName": '),
        v.api.post(path).send([leadBody()]),
        v.api.post(path),
        v.api.post(path).set('Content-Type', 'text/plain').send(JSON.stringify(leadBody())),
      ];
      for (const response of await Promise.all(cases)) {
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ message: 'INVALID_REQUEST', errors: [] });
      }
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it('answers 404 for a partner that does not exist or is not connected to the vendor (docs/api.md 5.3, D25)', async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      for (const partnerId of [other.partnerId, 987654321]) {
        const response = await v.api.post(`/partners/${partnerId}/leads`).send(leadBody());
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({
          message: 'RESOURCE_NOT_FOUND',
          status: 404,
          success: false,
          errors: [],
        });
      }
      expect(await leadsOfVendor(v.vendorId)).toBe(0);
    });

    it.each(['abc', '0', '1.5', '-1', '9007199254740992', '1e3', '+5'])(
      'refuses the path partnerId %s with VALIDATION_FAILED naming partnerId (D12, D39)',
      async (partnerId) => {
        const v = await vendorWithPartner(t);
        const response = await v.api.post(`/partners/${partnerId}/leads`).send(leadBody());
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(errorFields(response.body)).toEqual(['partnerId']);
      },
    );

    it('checks in the order of D37: body syntax, then path and fields together, then existence, then conflicts', async () => {
      const v = await vendorWithPartner(t);
      const syntax = await v.api
        .post('/partners/abc/leads')
        .set('Content-Type', 'application/json')
        .send('{oops');
      expect(syntax.body.message).toBe('INVALID_REQUEST');
      const fields = await v.api.post('/partners/abc/leads').send({ firstName: 1 });
      expect(fields.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(fields.body)).toEqual(['partnerId', 'firstName', 'emailAddress', 'companyName']);
      const invalidForMissingPartner = await v.api
        .post('/partners/987654321/leads')
        .send(leadBody({ leadAge: -3 }));
      expect(invalidForMissingPartner.status).toBe(400);
      expect(errorFields(invalidForMissingPartner.body)).toEqual(['leadAge']);
      const optionForMissingPartner = await v.api
        .post('/partners/987654321/leads')
        .send(leadBody({ source: 987654321 }));
      expect(optionForMissingPartner.status).toBe(400);
      expect(errorFields(optionForMissingPartner.body)).toEqual(['source']);
      const existing = await createLead(t.http, v.apiKey, v.partnerId);
      const other = await vendorWithPartner(t);
      const duplicateOnForeignPartner = await v.api
        .post(`/partners/${other.partnerId}/leads`)
        .send(leadBody({ emailAddress: existing.emailAddress }));
      expect(duplicateOnForeignPartner.status).toBe(404);
    });

    it('refuses an email already used by a lead of the partner, in any case, with DUPLICATE_ENTRY naming emailAddress (docs/api.md 5.2, D13)', async () => {
      const v = await vendorWithPartner(t);
      const first = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ emailAddress: first.emailAddress.toUpperCase() }));
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'DUPLICATE_ENTRY', status: 400, success: false });
      expect(errorFields(response.body)).toEqual(['emailAddress']);
      expect(await leadsOfVendor(v.vendorId)).toBe(1);
    });

    it('keeps the Greek final sigma as it is: ΟΔΟΣ@ and οδος@ are two addresses, and neither is a duplicate (D13, D28)', async () => {
      const v = await vendorWithPartner(t);
      const domain = `${unique('sigma')}.example`;
      const upper = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ emailAddress: `ΟΔΟΣ@${domain}` }));
      const lower = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ emailAddress: `οδος@${domain}` }));
      expect([upper.status, lower.status]).toEqual([200, 200]);
      expect([upper.body.data.isDuplicate, lower.body.data.isDuplicate]).toEqual([false, false]);
      // while the same letters in any case are one address
      const again = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ emailAddress: `οδοσ@${domain}` }));
      expect(again.body.message).toBe('DUPLICATE_ENTRY');
    });

    it('counts archived leads for email uniqueness (D27)', async () => {
      const v = await vendorWithPartner(t);
      const first = await createLead(t.http, v.apiKey, v.partnerId);
      expect((await v.api.put(`/leads/${first.id}/archive`)).status).toBe(200);
      const response = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .send(leadBody({ emailAddress: first.emailAddress }));
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('DUPLICATE_ENTRY');
    });

    it('allows the same email on another partner of the vendor (uniqueness is per partner)', async () => {
      const v = await vendorWithPartner(t);
      const first = await createLead(t.http, v.apiKey, v.partnerId);
      const secondPartner = await invitePartner(t.http, v.apiKey);
      const again = await createLead(t.http, v.apiKey, secondPartner, { emailAddress: first.emailAddress });
      expect(again.partnerId).toBe(secondPartner);
    });

    it("on a partner shared by two vendors, checks duplicates against the caller's own leads only (D20, D27)", async () => {
      const a = await vendorWithPartner(t);
      const contactEmailAddress = `${unique('shared')}@partner.test`;
      const shared = await invitePartner(t.http, a.apiKey, { contactEmailAddress });
      const b = await createVendor(app);
      const sharedForB = await invitePartner(t.http, b.apiKey, { contactEmailAddress });
      expect(sharedForB).toBe(shared);
      const ofA = await createLead(t.http, a.apiKey, shared);
      const ofB = await createLead(t.http, b.apiKey, shared, { emailAddress: ofA.emailAddress });
      expect(ofB.partnerId).toBe(shared);
      expect(ofB.isDuplicate).toBe(false);
      expect((await vendorApi(t.http, b.apiKey).get(`/leads/${ofA.id}`)).status).toBe(404);
    });
  });

  describe('GET /leads/{leadId} (docs/api.md 7)', () => {
    it('returns the lead with message null and exactly the fields of docs/api.md (D3, D4)', async () => {
      const v = await vendorWithPartner(t);
      const body = await fullBody(v.vendorId);
      const created = await createLead(t.http, v.apiKey, v.partnerId, body);
      const response = await v.api.get(`/leads/${created.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: null, data: created });
      expect(Object.keys(response.body.data).sort()).toEqual([...LEAD_FIELDS].sort());
      expect(response.body.timestamp).toMatch(ISO_DATETIME);
    });

    it("answers 404 for another vendor's lead exactly as for a missing one (docs/api.md 7, D27)", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await createLead(t.http, other.apiKey, other.partnerId);
      const responses = [await v.api.get(`/leads/${foreign.id}`), await v.api.get('/leads/987654321')];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect({ ...response.body, timestamp: undefined }).toEqual({
          message: 'RESOURCE_NOT_FOUND',
          status: 404,
          success: false,
          errors: [],
          timestamp: undefined,
        });
      }
    });

    it.each(['abc', '0', '1.5', '-1', '9007199254740992'])(
      'refuses the path leadId %s with VALIDATION_FAILED naming leadId (D12)',
      async (leadId) => {
        const v = await vendorWithPartner(t);
        const response = await v.api.get(`/leads/${leadId}`);
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(errorFields(response.body)).toEqual(['leadId']);
      },
    );

    it('accepts leading zeros in a path id (D39)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api.get(`/leads/000${lead.id}`);
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(lead.id);
    });
  });

  describe('PUT /leads/{leadId} (docs/api.md 8)', () => {
    it('replaces the lead: every writable field omitted is cleared (D29)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId, await fullBody(v.vendorId));
      const response = await v.api
        .put(`/leads/${created.id}`)
        .send({ firstName: 'Grace', emailAddress: created.emailAddress, companyName: 'Navy' });
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
      const lead = response.body.data as LeadJson;
      expect(lead).toMatchObject({ id: created.id, firstName: 'Grace', companyName: 'Navy' });
      for (const field of [
        'lastName',
        'phoneNumber',
        'linkedInUrl',
        'websiteUrl',
        'companySize',
        'industry',
        'jobTitle',
        'city',
        'state',
        'country',
        'source',
        'status',
        'leadAge',
        'productsInterested',
        'businessImpactMetrics',
        'externalId',
      ]) {
        expect(lead[field]).toBeNull();
      }
      expect((await v.api.get(`/leads/${created.id}`)).body.data).toEqual(lead);
    });

    it('takes back a lead as read: GET, edit, PUT whole (D5)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId, await fullBody(v.vendorId));
      const read = (await v.api.get(`/leads/${created.id}`)).body.data as LeadJson;
      const response = await v.api.put(`/leads/${created.id}`).send({ ...read, city: 'Paris' });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ ...read, city: 'Paris', updatedAt: response.body.data.updatedAt });
    });

    it('never changes approvalStatus or archived, whatever the body says (docs/api.md 8.2)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      await v.api.put(`/leads/${created.id}/approve`);
      await v.api.put(`/leads/${created.id}/archive`);
      const response = await v.api.put(`/leads/${created.id}`).send(
        leadBody({
          emailAddress: created.emailAddress,
          approvalStatus: 'PENDING',
          archived: false,
          rejectComment: 'x',
        }),
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        approvalStatus: 'APPROVED',
        archived: true,
        rejectComment: null,
      });
    });

    it('moves updatedAt when something changes, and not when the body equals the lead (D34)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId, { city: 'London' });
      const same = await v.api
        .put(`/leads/${created.id}`)
        .send(leadBody({ emailAddress: created.emailAddress, city: 'London' }));
      expect(same.body.data.updatedAt).toBe(created.updatedAt);
      const changed = await v.api
        .put(`/leads/${created.id}`)
        .send(leadBody({ emailAddress: created.emailAddress, city: 'Rome' }));
      expect(changed.body.data.updatedAt).toMatch(ISO_DATETIME);
      expect(Date.parse(changed.body.data.updatedAt)).toBeGreaterThan(Date.parse(created.updatedAt));
      expect(changed.body.data.createdAt).toBe(created.createdAt);
    });

    it('requires the three required fields and a body (D29, D38)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const partial = await v.api.put(`/leads/${created.id}`).send({ lastName: 'x' });
      expect(partial.status).toBe(400);
      expect(errorFields(partial.body).sort()).toEqual(['companyName', 'emailAddress', 'firstName']);
      const empty = await v.api.put(`/leads/${created.id}`);
      expect(empty.body.message).toBe('INVALID_REQUEST');
      expect((await v.api.get(`/leads/${created.id}`)).body.data).toEqual(created);
    });

    it("refuses another lead's email of the partner with DUPLICATE_ENTRY; its own email in another case is fine", async () => {
      const v = await vendorWithPartner(t);
      const a = await createLead(t.http, v.apiKey, v.partnerId);
      const b = await createLead(t.http, v.apiKey, v.partnerId);
      const taken = await v.api
        .put(`/leads/${b.id}`)
        .send(leadBody({ emailAddress: a.emailAddress.toUpperCase() }));
      expect(taken.status).toBe(400);
      expect(taken.body.message).toBe('DUPLICATE_ENTRY');
      expect(errorFields(taken.body)).toEqual(['emailAddress']);
      expect((await v.api.get(`/leads/${b.id}`)).body.data).toEqual(b);
      const own = await v.api
        .put(`/leads/${b.id}`)
        .send(leadBody({ emailAddress: b.emailAddress.toUpperCase() }));
      expect(own.status).toBe(200);
      expect(own.body.data.emailAddress).toBe(b.emailAddress.toUpperCase());
    });

    it('replaces an archived lead, keeping it archived (D31)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      await v.api.put(`/leads/${created.id}/archive`);
      const response = await v.api.put(`/leads/${created.id}`).send(leadBody({ firstName: 'Later' }));
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ firstName: 'Later', archived: true });
    });

    it("answers 404 for another vendor's lead and changes nothing (D27)", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await createLead(t.http, other.apiKey, other.partnerId);
      const response = await v.api.put(`/leads/${foreign.id}`).send(leadBody());
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ message: 'RESOURCE_NOT_FOUND', errors: [] });
      expect((await other.api.get(`/leads/${foreign.id}`)).body.data).toEqual(foreign);
    });

    it('reports a malformed body before a missing lead (D37)', async () => {
      const v = await vendorWithPartner(t);
      const response = await v.api.put('/leads/987654321').send({ firstName: 'x' });
      expect(response.status).toBe(400);
      expect(errorFields(response.body).sort()).toEqual(['companyName', 'emailAddress']);
      const badId = await v.api.put('/leads/1.5').send({ firstName: 'x' });
      expect(errorFields(badId.body)).toEqual(['leadId', 'emailAddress', 'companyName']);
    });
  });

  describe('PATCH /leads/{leadId} (docs/api.md 9)', () => {
    it('changes only the fields present (D29)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId, await fullBody(v.vendorId));
      const response = await v.api.patch(`/leads/${created.id}`).send({ city: 'Paris', leadAge: 0 });
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
      expect(response.body.data).toEqual({
        ...created,
        city: 'Paris',
        leadAge: 0,
        updatedAt: response.body.data.updatedAt,
      });
    });

    it('clears a nullable field sent as null (D29)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId, await fullBody(v.vendorId));
      const response = await v.api
        .patch(`/leads/${created.id}`)
        .send({ lastName: null, source: null, leadAge: null, externalId: null });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        lastName: null,
        source: null,
        leadAge: null,
        externalId: null,
        city: 'London',
      });
    });

    it('refuses null for firstName, emailAddress and companyName, naming each (D29)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api
        .patch(`/leads/${created.id}`)
        .send({ firstName: null, emailAddress: null, companyName: null });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('VALIDATION_FAILED');
      expect(errorFields(response.body).sort()).toEqual(['companyName', 'emailAddress', 'firstName']);
      expect((await v.api.get(`/leads/${created.id}`)).body.data).toEqual(created);
    });

    it('answers 200 to {} and changes nothing, not even updatedAt (D29, D34)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api.patch(`/leads/${created.id}`).send({});
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(created);
    });

    it('ignores approvalStatus, archived and other read-only fields (docs/api.md 9.2, D5)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api
        .patch(`/leads/${created.id}`)
        .send({ approvalStatus: 'REJECTED', archived: true, partnerId: 1, isDuplicate: true, id: 1 });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual(created);
    });

    it('refuses wrong types and lengths (D14, D17) and a malformed email', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api
        .patch(`/leads/${created.id}`)
        .send({ emailAddress: 'nope', leadAge: '3', city: 'x'.repeat(256), businessImpactMetrics: 5 });
      expect(response.status).toBe(400);
      expect(errorFields(response.body).sort()).toEqual([
        'businessImpactMetrics',
        'city',
        'emailAddress',
        'leadAge',
      ]);
    });

    it("refuses another vendor's option id for status (D15)", async () => {
      const v = await vendorWithPartner(t);
      const other = await createVendor(app);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      const foreign = await createLeadOption(app, other.vendorId, 'status', 'Cold');
      const response = await v.api.patch(`/leads/${created.id}`).send({ status: foreign });
      expect(response.status).toBe(400);
      expect(errorFields(response.body)).toEqual(['status']);
    });

    it("refuses another lead's email of the partner with DUPLICATE_ENTRY (docs/api.md 9.3)", async () => {
      const v = await vendorWithPartner(t);
      const a = await createLead(t.http, v.apiKey, v.partnerId);
      const b = await createLead(t.http, v.apiKey, v.partnerId);
      const response = await v.api.patch(`/leads/${b.id}`).send({ emailAddress: a.emailAddress });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('DUPLICATE_ENTRY');
      expect(errorFields(response.body)).toEqual(['emailAddress']);
      expect((await v.api.get(`/leads/${b.id}`)).body.data.emailAddress).toBe(b.emailAddress);
    });

    it('updates an archived or approved lead without touching its state (D31)', async () => {
      const v = await vendorWithPartner(t);
      const created = await createLead(t.http, v.apiKey, v.partnerId);
      await v.api.put(`/leads/${created.id}/reject`).send({ comment: 'no' });
      await v.api.put(`/leads/${created.id}/archive`);
      const response = await v.api.patch(`/leads/${created.id}`).send({ jobTitle: 'CEO' });
      expect(response.body.data).toMatchObject({
        jobTitle: 'CEO',
        approvalStatus: 'REJECTED',
        archived: true,
        rejectComment: 'no',
      });
    });

    it("answers 404 for another vendor's lead and a missing one, and INVALID_REQUEST for no body (D38)", async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const foreign = await createLead(t.http, other.apiKey, other.partnerId);
      expect((await v.api.patch(`/leads/${foreign.id}`).send({ city: 'x' })).status).toBe(404);
      expect((await v.api.patch('/leads/987654321').send({})).status).toBe(404);
      const noBody = await v.api.patch(`/leads/${foreign.id}`);
      expect(noBody.body.message).toBe('INVALID_REQUEST');
      expect((await other.api.get(`/leads/${foreign.id}`)).body.data).toEqual(foreign);
    });
  });
});
