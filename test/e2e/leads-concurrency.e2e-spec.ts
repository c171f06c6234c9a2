import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Clock } from '../../src/shared/domain/clock';
import { FixedClock } from '../support/lead-clock';
import {
  LeadJson,
  countRows,
  createLead,
  invitePartner,
  leadBody,
  vendorApi,
  vendorWithPartner,
} from '../support/lead-fixtures';
import { TestApp, createTestApp, createVendor, unique } from '../support/test-app';

/**
 * Concurrent requests on one lead or one email (D27, D32, D33). On SQLite the UnitOfWork serializes
 * transactions; on MySQL the row lock and the unique indexes decide, also across two server processes
 * (leads-concurrency.mysql.e2e-spec.ts).
 */
describe('Leads under concurrent requests', () => {
  let t: TestApp;
  let app: NestFastifyApplication;

  beforeAll(async () => {
    t = await createTestApp();
    app = t.app;
  });
  afterAll(() => t.close());

  it('20 parallel approves of one lead: all 200, one contactId, one contact row (D32)', async () => {
    const v = await vendorWithPartner(t);
    const lead = await createLead(t.http, v.apiKey, v.partnerId);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => v.api.put(`/leads/${lead.id}/approve`)),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(responses.map((r) => r.body.data.contactId)).size).toBe(1);
    expect(new Set(responses.map((r) => r.body.data.lead.updatedAt)).size).toBe(1);
    expect(await countRows(app, 'contacts', 'lead_id = ?', [lead.id])).toBe(1);
  });

  it('20 parallel creates with one email: one 200, nineteen DUPLICATE_ENTRY, never a 500 (D27)', async () => {
    const v = await vendorWithPartner(t);
    const email = `${unique('race')}@example.test`;
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        v.api
          .post(`/partners/${v.partnerId}/leads`)
          .send(leadBody({ emailAddress: i % 2 ? email : email.toUpperCase() })),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    const refused = responses.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(19);
    for (const response of refused) {
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('DUPLICATE_ENTRY');
      expect(response.body.errors.map((e: { field: string }) => e.field)).toEqual(['emailAddress']);
    }
    expect(await countRows(app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
  });

  it('10 parallel rejects with different comments: all 200, one comment kept and answered to all (D32)', async () => {
    const v = await vendorWithPartner(t);
    const lead = await createLead(t.http, v.apiKey, v.partnerId);
    const comments = Array.from({ length: 10 }, (_, i) => `reason ${i}`);
    const responses = await Promise.all(
      comments.map((comment) => v.api.put(`/leads/${lead.id}/reject`).send({ comment })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const kept = new Set(responses.map((r) => r.body.data.rejectComment));
    expect(kept.size).toBe(1);
    const [comment] = [...kept];
    expect(comments).toContain(comment);
    const stored = (await v.api.get(`/leads/${lead.id}`)).body.data as LeadJson;
    expect(stored).toMatchObject({ approvalStatus: 'REJECTED', rejectComment: comment });
  });

  it('parallel approves and rejects of one lead: exactly one wins, the others get 409 or the same answer (D30, D32)', async () => {
    const v = await vendorWithPartner(t);
    const lead = await createLead(t.http, v.apiKey, v.partnerId);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        i % 2
          ? v.api.put(`/leads/${lead.id}/approve`)
          : v.api.put(`/leads/${lead.id}/reject`).send({ comment: `r${i}` }),
      ),
    );
    const stored = (await v.api.get(`/leads/${lead.id}`)).body.data as LeadJson;
    const approvals = responses.filter((_, i) => i % 2);
    const rejections = responses.filter((_, i) => !(i % 2));
    const winners = stored.approvalStatus === 'APPROVED' ? approvals : rejections;
    const losers = stored.approvalStatus === 'APPROVED' ? rejections : approvals;
    expect(winners.map((r) => r.status)).toEqual(Array(5).fill(200));
    expect(losers.map((r) => r.status)).toEqual(Array(5).fill(409));
    expect(await countRows(app, 'contacts', 'lead_id = ?', [lead.id])).toBe(
      stored.approvalStatus === 'APPROVED' ? 1 : 0,
    );
  });

  describe('paging through leads that share one createdAt millisecond (D33)', () => {
    let fixed: TestApp;

    beforeAll(async () => {
      fixed = await createTestApp({
        override: (b) =>
          b.overrideProvider(Clock).useValue(new FixedClock(new Date('2026-02-02T02:02:02.202Z'))),
      });
    });
    afterAll(() => fixed.close());

    it('yields each of 25 leads created in parallel exactly once, perPage 7, in both directions', async () => {
      const { apiKey } = await createVendor(fixed.app);
      const api = vendorApi(fixed.http, apiKey);
      const partnerId = await invitePartner(fixed.http, apiKey);
      const created = await Promise.all(
        Array.from({ length: 25 }, () => createLead(fixed.http, apiKey, partnerId)),
      );
      expect(new Set(created.map((l) => l.createdAt)).size).toBe(1);
      const allIds = created.map((l) => l.id).sort((a, b) => a - b);
      for (const direction of ['asc', 'desc'] as const) {
        for (const sortBy of ['createdAt', 'updatedAt', 'id']) {
          const seen: number[] = [];
          for (let page = 0; page < 4; page++) {
            const response = await api.get(
              `/partners/${partnerId}/leads?perPage=7&page=${page}&sortBy=${sortBy}&sortDirection=${direction}`,
            );
            expect(response.body.data.totalItems).toBe(25);
            expect(response.body.data.data.length).toBe(page < 3 ? 7 : 4);
            seen.push(...response.body.data.data.map((l: LeadJson) => l.id));
          }
          expect(seen).toEqual(direction === 'asc' ? allIds : [...allIds].reverse());
        }
      }
    });
  });
});
