import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { EntityManager } from 'typeorm';
import { Clock } from '../../src/shared/domain/clock';
import { SettableClock } from '../support/lead-clock';
import {
  LEAD_FIELDS,
  LeadJson,
  createLead,
  errorFields,
  invitePartner,
  vendorApi,
  vendorWithPartner,
  VendorWithPartner,
} from '../support/lead-fixtures';
import { TestApp, createLeadOption, createTestApp, createVendor, unique } from '../support/test-app';

/** docs/api.md endpoint 6 with D27, D28, D33 and D39. */
describe('GET /partners/{partnerId}/leads', () => {
  let t: TestApp;
  let app: NestFastifyApplication;
  const clock = new SettableClock();

  beforeAll(async () => {
    t = await createTestApp({ override: (b) => b.overrideProvider(Clock).useValue(clock) });
    app = t.app;
  });
  afterAll(() => t.close());

  async function leadAt(
    v: VendorWithPartner,
    iso: string,
    overrides: Record<string, unknown> = {},
  ): Promise<LeadJson> {
    clock.set(iso);
    return createLead(t.http, v.apiKey, v.partnerId, overrides);
  }

  async function list(v: VendorWithPartner, query = '', partnerId = v.partnerId) {
    const response = await v.api.get(`/partners/${partnerId}/leads${query ? `?${query}` : ''}`);
    return response;
  }

  async function ids(v: VendorWithPartner, query = ''): Promise<number[]> {
    const response = await list(v, query);
    expect(response.status).toBe(200);
    return (response.body.data.data as LeadJson[]).map((lead) => lead.id);
  }

  describe('a partner with a known set of leads', () => {
    let v: VendorWithPartner;
    let hot: number;
    let cold: number;
    let web: number;
    let fair: number;
    const lead: Record<string, LeadJson> = {};

    beforeAll(async () => {
      v = await vendorWithPartner(t);
      hot = await createLeadOption(app, v.vendorId, 'status', 'Hot');
      cold = await createLeadOption(app, v.vendorId, 'status', 'Cold');
      web = await createLeadOption(app, v.vendorId, 'source', 'Web');
      fair = await createLeadOption(app, v.vendorId, 'source', 'Fair');
      const tag = unique('t');
      lead.ada = await leadAt(v, '2026-03-01T00:00:00.000Z', {
        firstName: 'Ada',
        emailAddress: `ada.${tag}@x.test`,
        status: hot,
        source: web,
      });
      lead.adam = await leadAt(v, '2026-03-01T23:59:59.999Z', {
        firstName: 'ADAM',
        emailAddress: `zed.${tag}@x.test`,
        status: cold,
        source: web,
      });
      lead.bob = await leadAt(v, '2026-03-02T00:00:00.000Z', {
        firstName: 'Bob',
        emailAddress: `Ada_B.${tag}@x.test`,
        status: hot,
        source: fair,
      });
      lead.pct = await leadAt(v, '2026-03-03T12:00:00.000Z', {
        firstName: '100%_sure',
        emailAddress: `pct.${tag}@x.test`,
      });
      lead.hundred = await leadAt(v, '2026-03-03T12:00:00.000Z', {
        firstName: '100xYsure',
        emailAddress: `hun.${tag}@x.test`,
      });
      lead.slash = await leadAt(v, '2026-03-04T08:00:00.000Z', {
        firstName: 'Back\\slash',
        emailAddress: `bs.${tag}@x.test`,
      });
      lead.gone = await leadAt(v, '2026-03-05T08:00:00.000Z', {
        firstName: 'Adele',
        emailAddress: `gone.${tag}@x.test`,
        status: hot,
      });
      clock.set('2026-03-06T00:00:00.000Z');
      await v.api.put(`/leads/${lead.gone.id}/archive`);
      clock.set('2026-03-07T00:00:00.000Z');
      await v.api.put(`/leads/${lead.ada.id}/approve`);
      clock.set('2026-03-08T00:00:00.000Z');
      await v.api.put(`/leads/${lead.bob.id}/reject`);
    });

    const active = () => ['ada', 'adam', 'bob', 'pct', 'hundred', 'slash'];
    const idsOf = (...names: string[]) => names.map((name) => lead[name]!.id);

    it('lists active leads newest first by default, ties broken by id in the same direction, with the page shape (docs/api.md 6)', async () => {
      const response = await list(v);
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
      expect(Object.keys(response.body.data).sort()).toEqual(['data', 'page', 'perPage', 'totalItems']);
      expect(response.body.data).toMatchObject({ page: 0, perPage: 20, totalItems: 6 });
      // pct and hundred share a createdAt: the larger id comes first in desc
      expect(await ids(v)).toEqual(idsOf('slash', 'hundred', 'pct', 'bob', 'adam', 'ada'));
      for (const item of response.body.data.data as LeadJson[])
        expect(Object.keys(item).sort()).toEqual([...LEAD_FIELDS].sort());
    });

    it('pages with page and perPage, totalItems counting every match (docs/api.md "Pages")', async () => {
      const second = await list(v, 'page=1&perPage=4');
      expect(second.body.data).toMatchObject({ page: 1, perPage: 4, totalItems: 6 });
      expect(second.body.data.data.map((l: LeadJson) => l.id)).toEqual(idsOf('adam', 'ada'));
      const beyond = await list(v, 'page=5&perPage=4');
      expect(beyond.body.data).toEqual({ data: [], page: 5, perPage: 4, totalItems: 6 });
    });

    it('sorts by id, createdAt or updatedAt in either direction; sortDirection is case-insensitive (D33, D39)', async () => {
      expect(await ids(v, 'sortBy=id&sortDirection=asc')).toEqual(
        [...idsOf(...active())].sort((a, b) => a - b),
      );
      expect(await ids(v, 'sortBy=id&sortDirection=DESC')).toEqual(
        [...idsOf(...active())].sort((a, b) => b - a),
      );
      expect(await ids(v, 'sortBy=createdAt&sortDirection=Asc')).toEqual(
        idsOf('ada', 'adam', 'bob', 'pct', 'hundred', 'slash'),
      );
      // updatedAt: bob (rejected 03-08) and ada (approved 03-07) were written last
      expect(await ids(v, 'sortBy=updatedAt')).toEqual(
        idsOf('bob', 'ada', 'slash', 'hundred', 'pct', 'adam'),
      );
    });

    it('falls back to createdAt for an unknown sortBy, without error (docs/api.md 6)', async () => {
      expect(await ids(v, 'sortBy=firstName')).toEqual(await ids(v, 'sortBy=createdAt'));
    });

    it('filters by approvalStatus, exact upper case (D39)', async () => {
      expect(await ids(v, 'approvalStatus=APPROVED')).toEqual(idsOf('ada'));
      expect(await ids(v, 'approvalStatus=REJECTED')).toEqual(idsOf('bob'));
      expect(await ids(v, 'approvalStatus=PENDING')).toEqual(idsOf('slash', 'hundred', 'pct', 'adam'));
    });

    it('filters by repeatable status and source lists; an id that matches nothing gives an empty page (D33)', async () => {
      expect(await ids(v, `status=${hot}`)).toEqual(idsOf('bob', 'ada'));
      expect(await ids(v, `status=${hot}&status=${cold}`)).toEqual(idsOf('bob', 'adam', 'ada'));
      expect(await ids(v, `source=${web}`)).toEqual(idsOf('adam', 'ada'));
      expect(await ids(v, `source=${web}&source=${fair}&status=${hot}`)).toEqual(idsOf('bob', 'ada'));
      const none = await list(v, 'status=987654321');
      expect(none.body.data).toMatchObject({ data: [], totalItems: 0 });
    });

    it('matches keyword as a case-insensitive prefix of the first name or the email (D13, D33)', async () => {
      expect(await ids(v, 'keyword=ada')).toEqual(idsOf('bob', 'adam', 'ada')); // Bob's email starts with Ada_
      expect(await ids(v, 'keyword=ADAM')).toEqual(idsOf('adam'));
      expect(await ids(v, 'keyword=zed')).toEqual(idsOf('adam'));
      expect(await ids(v, 'keyword=da')).toEqual([]); // a prefix, not a substring
    });

    it('treats %, _ and \\ in keyword literally (D33)', async () => {
      expect(await ids(v, `keyword=${encodeURIComponent('100%')}`)).toEqual(idsOf('pct'));
      expect(await ids(v, `keyword=${encodeURIComponent('100%_')}`)).toEqual(idsOf('pct'));
      expect(await ids(v, 'keyword=100')).toEqual(idsOf('hundred', 'pct'));
      expect(await ids(v, 'keyword=_')).toEqual([]);
      expect(await ids(v, `keyword=${encodeURIComponent('ada_')}`)).toEqual(idsOf('bob'));
      expect(await ids(v, `keyword=${encodeURIComponent('back\\')}`)).toEqual(idsOf('slash'));
      expect(await ids(v, `keyword=${encodeURIComponent('%')}`)).toEqual([]);
    });

    it('bounds createdAt by whole UTC days, both inclusive (D33)', async () => {
      expect(await ids(v, 'createdAtAfter=2026-03-01&createdAtBefore=2026-03-01')).toEqual(
        idsOf('adam', 'ada'),
      );
      expect(await ids(v, 'createdAtAfter=2026-03-02')).toEqual(idsOf('slash', 'hundred', 'pct', 'bob'));
      expect(await ids(v, 'createdAtBefore=2026-03-02')).toEqual(idsOf('bob', 'adam', 'ada'));
      expect(await ids(v, 'createdAtAfter=2026-03-05')).toEqual([]);
    });

    it('keeps the bounds inclusive at the ends of the calendar: 0001-01-01 and 9999-12-31 exclude nothing (D33)', async () => {
      const all = await ids(v);
      expect(all.length).toBeGreaterThan(0);
      expect(await ids(v, 'createdAtAfter=0001-01-01&createdAtBefore=9999-12-31')).toEqual(all);
      expect(await ids(v, 'createdAtBefore=9999-12-31')).toEqual(all);
      expect(await ids(v, 'createdAtAfter=0001-01-01')).toEqual(all);
      expect(await ids(v, 'createdAtBefore=0999-12-31')).toEqual([]);
    });

    it('lists active leads for archived omitted or false, and archived leads only for true (D33)', async () => {
      expect(await ids(v, 'archived=false')).toEqual(await ids(v));
      expect(await ids(v, 'archived=true')).toEqual(idsOf('gone'));
      expect((await list(v, 'archived=true')).body.data.totalItems).toBe(1);
    });

    it('combines every filter with AND (D33)', async () => {
      expect(
        await ids(v, `keyword=ad&status=${hot}&createdAtBefore=2026-03-01&approvalStatus=APPROVED`),
      ).toEqual(idsOf('ada'));
      expect(await ids(v, `keyword=ad&status=${hot}&archived=true`)).toEqual(idsOf('gone'));
      expect(await ids(v, `keyword=ad&status=${hot}&approvalStatus=PENDING`)).toEqual([]);
    });

    it('ignores unknown query parameters (D39)', async () => {
      expect(await ids(v, 'colour=blue&vendorId=1')).toEqual(await ids(v));
    });

    it('computes isDuplicate for the whole page in one statement (D28)', async () => {
      // On SQLite with the page's rows, on MySQL in a statement of its own: either way one
      // statement reads the other leads, for all six leads of the page. LeadQueries sends its SQL
      // through the EntityManager of the transaction, or the data source's.
      const sent: unknown[][] = [];
      const original = EntityManager.prototype.query;
      jest.spyOn(EntityManager.prototype, 'query').mockImplementation(function (
        this: EntityManager,
        sql: string,
        params?: Parameters<EntityManager['query']>[1],
      ) {
        if (sql.includes('FROM leads o')) sent.push([...((params as unknown[] | undefined) ?? [])]);
        return original.call(this, sql, params);
      });
      let page: number[];
      try {
        page = await ids(v);
      } finally {
        jest.restoreAllMocks();
      }
      expect(page).toHaveLength(6);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toEqual(expect.arrayContaining(page));
    });
  });

  describe('query validation (D33, D39)', () => {
    let v: VendorWithPartner;
    beforeAll(async () => {
      v = await vendorWithPartner(t);
    });

    it.each([
      ['page=1e2', 'page'],
      ['page=-1', 'page'],
      ['page=1.0', 'page'],
      ['page=0&page=1', 'page'],
      ['perPage=101', 'perPage'],
      ['perPage=0', 'perPage'],
      ['perPage=', 'perPage'],
      ['perPage=9007199254740992', 'perPage'],
      ['sortDirection=up', 'sortDirection'],
      ['sortBy=id&sortBy=createdAt', 'sortBy'],
      ['approvalStatus=pending', 'approvalStatus'],
      ['approvalStatus=ARCHIVED', 'approvalStatus'],
      ['status=abc', 'status'],
      ['status=3&status=-4', 'status'],
      ['source=1.5', 'source'],
      ['createdAtAfter=2026-02-30', 'createdAtAfter'],
      ['createdAtBefore=2026-1-5', 'createdAtBefore'],
      ['createdAtAfter=2026-01-05T00:00:00Z', 'createdAtAfter'],
      ['archived=TRUE', 'archived'],
      ['archived=yes', 'archived'],
      ['archived=true&archived=false', 'archived'],
      ['keyword=a&keyword=b', 'keyword'],
      [`keyword=${'k'.repeat(256)}`, 'keyword'],
      [`keyword=${encodeURIComponent('😀'.repeat(256))}`, 'keyword'],
    ])('refuses %s with VALIDATION_FAILED naming %s', async (query, field) => {
      const response = await list(v, query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ message: 'VALIDATION_FAILED', status: 400, success: false });
      expect(errorFields(response.body)).toEqual([field]);
    });

    it('accepts the bounds page=0, perPage=1 and perPage=100, and a keyword of 255 characters', async () => {
      for (const query of [
        'page=0&perPage=1',
        'perPage=100',
        'page=00&perPage=007',
        `keyword=${'k'.repeat(255)}`,
        `keyword=${encodeURIComponent('😀'.repeat(255))}`,
      ]) {
        expect((await list(v, query)).status).toBe(200);
      }
      expect((await list(v, 'page=00&perPage=007')).body.data).toMatchObject({ page: 0, perPage: 7 });
    });

    it('answers an empty page, not an error, for the largest page number (D39)', async () => {
      const response = await list(v, 'page=9007199254740991&perPage=100');
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ data: [], page: 9007199254740991, perPage: 100, totalItems: 0 });
    });

    it('lists every bad parameter together (D18)', async () => {
      const response = await list(v, 'page=-1&perPage=101&approvalStatus=x&createdAtAfter=2026-13-01');
      expect(errorFields(response.body).sort()).toEqual([
        'approvalStatus',
        'createdAtAfter',
        'page',
        'perPage',
      ]);
    });

    it.each(['abc', '0', '1.5', '-1', '9007199254740992'])(
      'refuses the path partnerId %s naming partnerId (D12)',
      async (partnerId) => {
        const response = await v.api.get(`/partners/${partnerId}/leads`);
        expect(response.status).toBe(400);
        expect(errorFields(response.body)).toEqual(['partnerId']);
      },
    );

    it('reports a bad query before a missing partner (D37)', async () => {
      const response = await v.api.get('/partners/987654321/leads?perPage=0');
      expect(response.status).toBe(400);
      expect(errorFields(response.body)).toEqual(['perPage']);
    });
  });

  describe('tenancy', () => {
    it('answers 404 for a partner that does not exist or is not connected to the vendor (docs/api.md 6, D25)', async () => {
      const v = await vendorWithPartner(t);
      const other = await vendorWithPartner(t);
      for (const partnerId of [other.partnerId, 987654321]) {
        const response = await list(v, '', partnerId);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ message: 'RESOURCE_NOT_FOUND', errors: [] });
      }
    });

    it('on a partner shared by two vendors, each lists and counts only its own leads (D20, D27)', async () => {
      const a = await vendorWithPartner(t);
      const contactEmailAddress = `${unique('shared')}@partner.test`;
      const shared = await invitePartner(t.http, a.apiKey, { contactEmailAddress });
      const bKeys = await createVendor(app);
      expect(await invitePartner(t.http, bKeys.apiKey, { contactEmailAddress })).toBe(shared);
      const b: VendorWithPartner = { ...bKeys, api: vendorApi(t.http, bKeys.apiKey), partnerId: shared };
      const aOnShared: VendorWithPartner = { ...a, partnerId: shared };
      const ofA = await leadAt(aOnShared, '2026-04-01T00:00:00.000Z');
      const ofB1 = await leadAt(b, '2026-04-01T00:00:01.000Z', { emailAddress: ofA.emailAddress });
      const ofB2 = await leadAt(b, '2026-04-01T00:00:02.000Z');
      const forA = await list(aOnShared);
      expect(forA.body.data.totalItems).toBe(1);
      expect(forA.body.data.data.map((l: LeadJson) => l.id)).toEqual([ofA.id]);
      expect(forA.body.data.data[0].isDuplicate).toBe(false); // B's lead with the same email does not count
      const forB = await list(b);
      expect(forB.body.data.totalItems).toBe(2);
      expect(forB.body.data.data.map((l: LeadJson) => l.id)).toEqual([ofB2.id, ofB1.id]);
    });
  });
});
