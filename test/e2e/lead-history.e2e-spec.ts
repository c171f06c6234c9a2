import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { LeadViews } from '../../src/leads/application/lead-views';
import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Clock } from '../../src/shared/domain/clock';
import { CreateApiKeyUseCase } from '../../src/vendors/application/create-api-key.use-case';
import { TickingClock } from '../support/lead-clock';
import {
  LeadJson,
  VendorApi,
  VendorWithPartner,
  createLead,
  errorFields,
  vendorApi,
  vendorWithPartner,
} from '../support/lead-fixtures';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

interface Entry {
  at: string;
  action: string;
  approvalStatusFrom: string | null;
  approvalStatusTo: string;
  archived: boolean;
  comment: string | null;
  changedFields: string[];
  apiKeyPrefix: string | null;
}

const ENTRY_FIELDS = [
  'at',
  'action',
  'approvalStatusFrom',
  'approvalStatusTo',
  'archived',
  'comment',
  'changedFields',
  'apiKeyPrefix',
];

/** The display prefix the service keeps of a key (D9): `prm_` and 6 characters. */
const prefixOf = (apiKey: string) => apiKey.slice(0, 10);

/**
 * X12: GET /leads/{leadId}/history through HTTP on the database under test: one entry per change,
 * none for a request that changed nothing or failed, written in the change's transaction.
 */
describe('Lead history (X12)', () => {
  let t: TestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    // every write gets a later time, so `at` can be compared with the lead's createdAt/updatedAt exactly
    t = await createTestApp({ override: (b) => b.overrideProvider(Clock).useValue(new TickingClock()) });
    app = t.app;
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  async function historyOf(api: VendorApi, leadId: number): Promise<Entry[]> {
    const response = await api.get(`/leads/${leadId}/history`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: null });
    expect(response.body.timestamp).toMatch(ISO_DATETIME);
    return response.body.data as Entry[];
  }

  const actions = async (api: VendorApi, leadId: number) =>
    (await historyOf(api, leadId)).map((e) => e.action);

  async function leadOf(v: VendorWithPartner, overrides: Record<string, unknown> = {}): Promise<LeadJson> {
    return createLead(t.http, v.apiKey, v.partnerId, overrides);
  }

  describe('an entry for each change', () => {
    it('CREATED: at = createdAt, from null to PENDING, not archived, no comment, no fields, the key’s prefix', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const history = await historyOf(v.api, lead.id);
      expect(history).toHaveLength(1);
      expect(Object.keys(history[0]!)).toEqual(ENTRY_FIELDS);
      expect(history[0]).toEqual({
        at: lead.createdAt,
        action: 'CREATED',
        approvalStatusFrom: null,
        approvalStatusTo: 'PENDING',
        archived: false,
        comment: null,
        changedFields: [],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
      expect(history[0]!.apiKeyPrefix).toMatch(/^prm_[A-Za-z0-9_-]{6}$/);
      expect(JSON.stringify(history)).not.toContain(v.apiKey);
    });

    it('REPLACED: the fields the PUT changed, cleared ones included, in the Lead object order; at = updatedAt', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v, { city: 'London', leadAge: 3 });
      const put = await v.api.put(`/leads/${lead.id}`).send({
        firstName: 'Grace',
        emailAddress: lead.emailAddress.toUpperCase(),
        companyName: lead.companyName,
        externalId: 'crm-1',
        leadAge: 3,
      });
      expect(put.status).toBe(200);
      const history = await historyOf(v.api, lead.id);
      expect(history.map((e) => e.action)).toEqual(['CREATED', 'REPLACED']);
      expect(history[1]).toEqual({
        at: put.body.data.updatedAt,
        action: 'REPLACED',
        approvalStatusFrom: 'PENDING',
        approvalStatusTo: 'PENDING',
        archived: false,
        comment: null,
        changedFields: ['firstName', 'emailAddress', 'city', 'externalId'],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
    });

    it('UPDATED: the fields the PATCH changed; an explicit null that clears counts, an unchanged value does not', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v, { lastName: 'Lovelace', city: 'London' });
      const patch = await v.api.patch(`/leads/${lead.id}`).send({
        status: null,
        lastName: null,
        city: 'London',
        jobTitle: 'Analyst',
        firstName: lead.firstName,
      });
      expect(patch.status).toBe(200);
      const history = await historyOf(v.api, lead.id);
      expect(history[1]).toEqual({
        at: patch.body.data.updatedAt,
        action: 'UPDATED',
        approvalStatusFrom: 'PENDING',
        approvalStatusTo: 'PENDING',
        archived: false,
        comment: null,
        changedFields: ['lastName', 'jobTitle'],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
    });

    it('APPROVED: from PENDING to APPROVED, archived as the lead is', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/archive`).expect(200);
      const approve = await v.api.put(`/leads/${lead.id}/approve`);
      expect(approve.status).toBe(200);
      const history = await historyOf(v.api, lead.id);
      expect(history.map((e) => e.action)).toEqual(['CREATED', 'ARCHIVED', 'APPROVED']);
      expect(history[2]).toEqual({
        at: approve.body.data.lead.updatedAt,
        action: 'APPROVED',
        approvalStatusFrom: 'PENDING',
        approvalStatusTo: 'APPROVED',
        archived: true,
        comment: null,
        changedFields: [],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
    });

    it('REJECTED: from PENDING to REJECTED with the comment; null when the reject had none', async () => {
      const v = await vendorWithPartner(t);
      const withComment = await leadOf(v);
      const reject = await v.api.put(`/leads/${withComment.id}/reject`).send({ comment: 'too small' });
      expect(reject.status).toBe(200);
      expect((await historyOf(v.api, withComment.id))[1]).toEqual({
        at: reject.body.data.updatedAt,
        action: 'REJECTED',
        approvalStatusFrom: 'PENDING',
        approvalStatusTo: 'REJECTED',
        archived: false,
        comment: 'too small',
        changedFields: [],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
      const without = await leadOf(v);
      await v.api.put(`/leads/${without.id}/reject`).expect(200);
      expect((await historyOf(v.api, without.id))[1]).toMatchObject({ action: 'REJECTED', comment: null });
    });

    it('ARCHIVED: archived true, the approval status unchanged on both sides', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'no' }).expect(200);
      const archive = await v.api.put(`/leads/${lead.id}/archive`);
      expect((await historyOf(v.api, lead.id))[2]).toEqual({
        at: archive.body.data.updatedAt,
        action: 'ARCHIVED',
        approvalStatusFrom: 'REJECTED',
        approvalStatusTo: 'REJECTED',
        archived: true,
        comment: null,
        changedFields: [],
        apiKeyPrefix: prefixOf(v.apiKey),
      });
    });

    it('lists a lead’s entries oldest first, each with the prefix of the key that made it', async () => {
      const v = await vendorWithPartner(t);
      const { apiKey: second } = await app.get(CreateApiKeyUseCase).execute(v.vendorId);
      const lead = await leadOf(v);
      await vendorApi(t.http, second).patch(`/leads/${lead.id}`).send({ city: 'Paris' }).expect(200);
      await v.api.put(`/leads/${lead.id}/archive`).expect(200);
      await vendorApi(t.http, second).put(`/leads/${lead.id}/approve`).expect(200);
      const history = await historyOf(v.api, lead.id);
      expect(history.map((e) => [e.action, e.apiKeyPrefix])).toEqual([
        ['CREATED', prefixOf(v.apiKey)],
        ['UPDATED', prefixOf(second)],
        ['ARCHIVED', prefixOf(v.apiKey)],
        ['APPROVED', prefixOf(second)],
      ]);
      const times = history.map((e) => e.at);
      expect([...times].sort()).toEqual(times);
      expect(new Set(times).size).toBe(4);
    });
  });

  describe('no entry for a request that changed nothing (D34)', () => {
    it('a re-approve, re-reject and re-archive add nothing', async () => {
      const v = await vendorWithPartner(t);
      const approved = await leadOf(v);
      await v.api.put(`/leads/${approved.id}/approve`).expect(200);
      await v.api.put(`/leads/${approved.id}/approve`).expect(200);
      expect(await actions(v.api, approved.id)).toEqual(['CREATED', 'APPROVED']);

      const rejected = await leadOf(v);
      await v.api.put(`/leads/${rejected.id}/reject`).send({ comment: 'first' }).expect(200);
      await v.api.put(`/leads/${rejected.id}/reject`).send({ comment: 'second' }).expect(200);
      expect(await historyOf(v.api, rejected.id)).toEqual([
        expect.objectContaining({ action: 'CREATED' }),
        expect.objectContaining({ action: 'REJECTED', comment: 'first' }),
      ]);

      const archived = await leadOf(v);
      await v.api.put(`/leads/${archived.id}/archive`).expect(200);
      await v.api.put(`/leads/${archived.id}/archive`).expect(200);
      expect(await actions(v.api, archived.id)).toEqual(['CREATED', 'ARCHIVED']);
    });

    it('PATCH {}, a PATCH of the stored values and a PUT of the stored lead add nothing', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v, { city: 'London', leadAge: 4 });
      await v.api.patch(`/leads/${lead.id}`).send({}).expect(200);
      await v.api.patch(`/leads/${lead.id}`).send({ city: 'London', state: null }).expect(200);
      // GET, then PUT back whole: read-only fields are ignored (D5), nothing changes
      const read = (await v.api.get(`/leads/${lead.id}`)).body.data as LeadJson;
      const put = await v.api.put(`/leads/${lead.id}`).send(read);
      expect(put.status).toBe(200);
      expect(put.body.data.updatedAt).toBe(lead.updatedAt);
      expect(await actions(v.api, lead.id)).toEqual(['CREATED']);
    });

    it('a request replayed for its Idempotency-Key runs nothing, so it adds nothing (X3)', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const toParis = () =>
        v.api.patch(`/leads/${lead.id}`).set('Idempotency-Key', 'history-1').send({ city: 'Paris' });
      await toParis().expect(200);
      await v.api.patch(`/leads/${lead.id}`).send({ city: 'Rome' }).expect(200);
      const replay = await toParis();
      expect(replay.status).toBe(200);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const history = await historyOf(v.api, lead.id);
      expect(history.map((e) => [e.action, e.changedFields])).toEqual([
        ['CREATED', []],
        ['UPDATED', ['city']],
        ['UPDATED', ['city']],
      ]);
      expect((await v.api.get(`/leads/${lead.id}`)).body.data.city).toBe('Rome');
    });

    it('a refused request adds nothing: 409, VALIDATION_FAILED, 404 of another vendor', async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/reject`).expect(200);
      await v.api.put(`/leads/${lead.id}/approve`).expect(409);
      await v.api.patch(`/leads/${lead.id}`).send({ firstName: null, city: 'Paris' }).expect(400);
      await other.api.patch(`/leads/${lead.id}`).send({ city: 'Paris' }).expect(404);
      await other.api.put(`/leads/${lead.id}/archive`).expect(404);
      expect(await actions(v.api, lead.id)).toEqual(['CREATED', 'REJECTED']);
    });
  });

  describe('under concurrency (D32)', () => {
    it('ten concurrent approves add one APPROVED entry; concurrent rejects one REJECTED entry, with the comment kept', async () => {
      const v = await vendorWithPartner(t);
      const approved = await leadOf(v);
      const rejected = await leadOf(v);
      await Promise.all([
        ...Array.from({ length: 10 }, () => v.api.put(`/leads/${approved.id}/approve`).expect(200)),
        ...Array.from({ length: 10 }, (_, i) =>
          v.api
            .put(`/leads/${rejected.id}/reject`)
            .send({ comment: `comment ${i}` })
            .expect(200),
        ),
      ]);
      expect(await actions(v.api, approved.id)).toEqual(['CREATED', 'APPROVED']);
      const history = await historyOf(v.api, rejected.id);
      expect(history.map((e) => e.action)).toEqual(['CREATED', 'REJECTED']);
      expect(history[1]!.comment).toBe((await v.api.get(`/leads/${rejected.id}`)).body.data.rejectComment);
    });

    it('an approve and a reject racing leave one entry, of the one that won', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      const [approve, reject] = await Promise.all([
        v.api.put(`/leads/${lead.id}/approve`),
        v.api.put(`/leads/${lead.id}/reject`).send({ comment: 'late' }),
      ]);
      expect([approve.status, reject.status].sort()).toEqual([200, 409]);
      const winner = approve.status === 200 ? 'APPROVED' : 'REJECTED';
      expect(await actions(v.api, lead.id)).toEqual(['CREATED', winner]);
    });
  });

  describe('entries are written in the transaction of the change', () => {
    it('a PUT refused as DUPLICATE_ENTRY after its REPLACED entry was written leaves no entry and the lead unchanged (D27)', async () => {
      const v = await vendorWithPartner(t);
      const taken = await leadOf(v);
      const lead = await leadOf(v, { city: 'London' });
      const put = await v.api
        .put(`/leads/${lead.id}`)
        .send({ firstName: 'Grace', emailAddress: taken.emailAddress, companyName: 'Other' });
      expect(put.status).toBe(400);
      expect(put.body.message).toBe('DUPLICATE_ENTRY');
      const patch = await v.api
        .patch(`/leads/${lead.id}`)
        .send({ emailAddress: taken.emailAddress.toUpperCase() });
      expect(patch.body.message).toBe('DUPLICATE_ENTRY');
      expect(await actions(v.api, lead.id)).toEqual(['CREATED']);
      expect((await v.api.get(`/leads/${lead.id}`)).body.data).toMatchObject({
        firstName: lead.firstName,
        city: 'London',
      });
    });

    it('the unique index refusing a replace after the check (a racing create) rolls the REPLACED entry back (D27)', async () => {
      const v = await vendorWithPartner(t);
      const taken = await leadOf(v);
      const lead = await leadOf(v);
      // the race: the duplicate check saw the address free, then another create took it
      jest.spyOn(app.get(LeadRepository), 'emailTaken').mockResolvedValue(false);
      const put = await v.api
        .put(`/leads/${lead.id}`)
        .send({ firstName: 'Grace', emailAddress: taken.emailAddress, companyName: 'Other' });
      expect(put.status).toBe(400);
      expect(put.body.message).toBe('DUPLICATE_ENTRY');
      expect(await actions(v.api, lead.id)).toEqual(['CREATED']);
    });

    it('an approve that fails after its APPROVED entry was written leaves no entry and the lead PENDING', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      jest.spyOn(app.get(LeadViews), 'one').mockRejectedValueOnce(new Error('failure after the writes'));
      const failed = await v.api.put(`/leads/${lead.id}/approve`);
      expect(failed.status).toBe(500);
      expect(await actions(v.api, lead.id)).toEqual(['CREATED']);
      expect((await v.api.get(`/leads/${lead.id}`)).body.data.approvalStatus).toBe('PENDING');
      await v.api.put(`/leads/${lead.id}/approve`).expect(200);
      expect(await actions(v.api, lead.id)).toEqual(['CREATED', 'APPROVED']);
    });

    it('a create that fails after its CREATED entry was written leaves neither the lead nor an entry', async () => {
      const v = await vendorWithPartner(t);
      jest.spyOn(app.get(LeadViews), 'one').mockRejectedValueOnce(new Error('failure after the writes'));
      const failed = await v.api.post(`/partners/${v.partnerId}/leads`).send({
        firstName: 'Ada',
        emailAddress: 'rolled.back@example.test',
        companyName: 'C',
      });
      expect(failed.status).toBe(500);
      const rows = await app
        .get(DataSource)
        .query(
          'SELECT COUNT(*) AS n FROM lead_history h JOIN leads l ON l.id = h.lead_id WHERE l.vendor_id = ?',
          [v.vendorId],
        );
      expect(Number(rows[0].n)).toBe(0);
      expect((await v.api.get(`/partners/${v.partnerId}/leads`)).body.data.totalItems).toBe(0);
    });
  });

  describe('reading', () => {
    it('another vendor’s lead and a missing lead are 404, as reading the lead (D27)', async () => {
      const v = await vendorWithPartner(t);
      const other = await createVendor(app);
      const lead = await leadOf(v);
      for (const [api, id] of [
        [vendorApi(t.http, other.apiKey), lead.id],
        [v.api, 9_007_199_254_740_991],
      ] as const) {
        const response = await api.get(`/leads/${id}/history`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({
          message: 'RESOURCE_NOT_FOUND',
          status: 404,
          success: false,
          errors: [],
        });
      }
    });

    it('a leadId that is not a positive integer is VALIDATION_FAILED naming leadId (D12, D39)', async () => {
      const v = await vendorWithPartner(t);
      for (const leadId of ['abc', '0', '1.5', '-1', '9007199254740992']) {
        const response = await v.api.get(`/leads/${leadId}/history`);
        expect([leadId, response.status, errorFields(response.body)]).toEqual([leadId, 400, ['leadId']]);
        expect(response.body.message).toBe('VALIDATION_FAILED');
      }
    });

    it('needs an API key like every route (D7)', async () => {
      const response = await t.http.get('/api/v1/vendors/leads/1/history');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, message: 'API_KEY_MISSING', data: null });
    });

    it('an archived lead’s history is readable', async () => {
      const v = await vendorWithPartner(t);
      const lead = await leadOf(v);
      await v.api.put(`/leads/${lead.id}/archive`).expect(200);
      expect(await actions(v.api, lead.id)).toEqual(['CREATED', 'ARCHIVED']);
    });
  });
});
