import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { Clock } from '../../src/shared/domain/clock';
import { errorFields, vendorApi, VendorApi } from '../support/lead-fixtures';
import { PartnerBody, PartnerMother, SettableClock, invitePartner } from '../support/partner-mother';
import { ISO_DATETIME, TestApp, createTestApp, createVendor, unique } from '../support/test-app';

const PARTNER_FIELDS = [
  'id',
  'companyName',
  'description',
  'website',
  'country',
  'companySize',
  'contactName',
  'contactEmailAddress',
  'contactPhone',
  'contactRole',
  'type',
  'users',
  'invitedAt',
  'createdAt',
];

interface Page {
  data: PartnerBody[];
  page: number;
  perPage: number;
  totalItems: number;
}

/** X9 (GET /partners) and X10 (GET /partners/{partnerId}) through HTTP on the database under test. */
describe('Partner reads (X9, X10)', () => {
  let t: TestApp;
  const clock = new SettableClock();

  beforeAll(async () => {
    t = await createTestApp({
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(Clock)
          .useValue(clock),
    });
  });
  afterAll(() => t.close());
  afterEach(() => clock.release());

  async function vendor(): Promise<{ apiKey: string; api: VendorApi }> {
    const { apiKey } = await createVendor(t.app);
    return { apiKey, api: vendorApi(t.http, apiKey) };
  }

  /** Invites a partner at a given time (createdAt), with the given body fields. */
  async function invite(
    apiKey: string,
    at: string,
    body: Record<string, unknown> = {},
  ): Promise<PartnerBody> {
    clock.pin(at);
    try {
      return await invitePartner(t.http, apiKey, PartnerMother.invite(body));
    } finally {
      clock.release();
    }
  }

  async function list(api: VendorApi, query = ''): Promise<Page> {
    const response = await api.get(`/partners${query}`);
    expect([query, response.status]).toEqual([query, 200]);
    expect(response.body).toMatchObject({ success: true, message: null });
    return response.body.data as Page;
  }

  const ids = (page: Page) => page.data.map((p) => p.id);

  describe('GET /partners/{partnerId} (X10)', () => {
    it('answers the Partner exactly, with users null (D4, X10)', async () => {
      const { apiKey, api } = await vendor();
      const invited = await invitePartner(t.http, apiKey, PartnerMother.fullInvite());
      const response = await api.get(`/partners/${invited.id}`);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: null });
      expect(response.body.timestamp).toMatch(ISO_DATETIME);
      expect(Object.keys(response.body.data)).toEqual(PARTNER_FIELDS);
      expect(response.body.data).toEqual({ ...invited, users: null });
    });

    it('is 404 for a partner that does not exist and for one not connected to the vendor, alike (D25)', async () => {
      const a = await vendor();
      const b = await vendor();
      const partner = await invitePartner(t.http, a.apiKey);
      for (const [api, id] of [
        [b.api, partner.id],
        [a.api, 9_007_199_254_740_991],
      ] as const) {
        const response = await api.get(`/partners/${id}`);
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({
          message: 'RESOURCE_NOT_FOUND',
          status: 404,
          success: false,
          errors: [],
        });
      }
    });

    it('a partner connected to two vendors (D20) is read the same by both', async () => {
      const a = await vendor();
      const b = await vendor();
      const partner = await invitePartner(t.http, a.apiKey);
      await invitePartner(
        t.http,
        b.apiKey,
        PartnerMother.invite({ contactEmailAddress: partner.contactEmailAddress }),
      );
      const byA = (await a.api.get(`/partners/${partner.id}`)).body.data;
      const byB = (await b.api.get(`/partners/${partner.id}`)).body.data;
      expect(byB).toEqual(byA);
      expect(byA.id).toBe(partner.id);
    });

    it('a partnerId that is not a positive integer is VALIDATION_FAILED naming partnerId (D12, D39)', async () => {
      const { api } = await vendor();
      for (const id of ['abc', '0', '1.5', '-1', '9007199254740992', '1e3']) {
        const response = await api.get(`/partners/${id}`);
        expect([id, response.status, errorFields(response.body)]).toEqual([id, 400, ['partnerId']]);
      }
    });
  });

  describe('GET /partners (X9)', () => {
    it('answers a page of the vendor’s partners, newest first, each exactly a Partner with users null', async () => {
      const { apiKey, api } = await vendor();
      const first = await invite(apiKey, '2026-02-01T10:00:00.000Z', { type: 'RESELLER' });
      const second = await invite(apiKey, '2026-02-02T10:00:00.000Z');
      const page = await list(api);
      expect(page).toEqual({
        data: [
          { ...second, users: null },
          { ...first, users: null },
        ],
        page: 0,
        perPage: 20,
        totalItems: 2,
      });
      for (const partner of page.data) expect(Object.keys(partner)).toEqual(PARTNER_FIELDS);
    });

    it('an empty page for a vendor without partners', async () => {
      const { api } = await vendor();
      expect(await list(api)).toEqual({ data: [], page: 0, perPage: 20, totalItems: 0 });
    });

    it('pages without skipping or repeating; a page past the end is empty with the total', async () => {
      const { apiKey, api } = await vendor();
      const invited: number[] = [];
      for (let i = 0; i < 5; i++) invited.push((await invite(apiKey, `2026-03-0${i + 1}T00:00:00.000Z`)).id);
      const pages = [
        await list(api, '?perPage=2'),
        await list(api, '?perPage=2&page=1'),
        await list(api, '?perPage=2&page=2'),
      ];
      expect(pages.map((p) => [p.page, p.perPage, p.totalItems])).toEqual([
        [0, 2, 5],
        [1, 2, 5],
        [2, 2, 5],
      ]);
      expect(pages.flatMap(ids)).toEqual([...invited].reverse());
      expect(await list(api, '?perPage=2&page=3')).toEqual({ data: [], page: 3, perPage: 2, totalItems: 5 });
    });

    it('sorts by createdAt, companyName (ignoring case) or id, in either direction (any case), ties by id', async () => {
      const { apiKey, api } = await vendor();
      const beta = await invite(apiKey, '2026-04-02T00:00:00.000Z', { companyName: 'Beta' });
      const alpha = await invite(apiKey, '2026-04-03T00:00:00.000Z', { companyName: 'alpha' });
      const gamma = await invite(apiKey, '2026-04-01T00:00:00.000Z', { companyName: 'gamma' });
      const beta2 = await invite(apiKey, '2026-04-03T00:00:00.000Z', { companyName: 'BETA' });
      expect(ids(await list(api, '?sortBy=createdAt&sortDirection=asc'))).toEqual([
        gamma.id,
        beta.id,
        alpha.id,
        beta2.id,
      ]);
      expect(ids(await list(api, '?sortBy=createdAt&sortDirection=DESC'))).toEqual([
        beta2.id,
        alpha.id,
        beta.id,
        gamma.id,
      ]);
      expect(ids(await list(api, '?sortBy=companyName&sortDirection=Asc'))).toEqual([
        alpha.id,
        beta.id,
        beta2.id,
        gamma.id,
      ]);
      expect(ids(await list(api, '?sortBy=companyName'))).toEqual([gamma.id, beta2.id, beta.id, alpha.id]);
      expect(ids(await list(api, '?sortBy=id&sortDirection=asc'))).toEqual([
        beta.id,
        alpha.id,
        gamma.id,
        beta2.id,
      ]);
      expect(ids(await list(api, '?sortBy=id'))).toEqual([beta2.id, gamma.id, alpha.id, beta.id]);
      // an unknown sortBy falls back to createdAt, as in the lead listing (api.md 6)
      expect(ids(await list(api, '?sortBy=contactName&sortDirection=asc'))).toEqual([
        gamma.id,
        beta.id,
        alpha.id,
        beta2.id,
      ]);
    });

    it('keyword: a literal, case-insensitive prefix of companyName or contactEmailAddress; % _ \\ match themselves', async () => {
      const { apiKey, api } = await vendor();
      const tag = unique('k');
      const percent = await invite(apiKey, '2026-05-01T00:00:00.000Z', { companyName: `${tag} 100% Sales` });
      const underscore = await invite(apiKey, '2026-05-02T00:00:00.000Z', { companyName: `${tag} a_b` });
      const backslash = await invite(apiKey, '2026-05-03T00:00:00.000Z', { companyName: `${tag} a\\b` });
      const plain = await invite(apiKey, '2026-05-04T00:00:00.000Z', {
        companyName: `${tag} axb 1000 Sales`,
      });
      const byEmail = await invite(apiKey, '2026-05-05T00:00:00.000Z', {
        companyName: 'Élan Vital',
        contactEmailAddress: `Contact.${tag}@Partner.test`,
      });
      const search = async (keyword: string) =>
        ids(await list(api, `?sortDirection=asc&keyword=${encodeURIComponent(keyword)}`));
      expect(await search(tag.toUpperCase())).toEqual([percent.id, underscore.id, backslash.id, plain.id]);
      expect(await search(`${tag} 100%`)).toEqual([percent.id]);
      expect(await search(`${tag} a_`)).toEqual([underscore.id]);
      expect(await search(`${tag} a\\`)).toEqual([backslash.id]);
      expect(await search(`${tag} a`)).toEqual([underscore.id, backslash.id, plain.id]);
      expect(await search(`CONTACT.${tag}@`)).toEqual([byEmail.id]);
      expect(await search('éLAN')).toEqual([byEmail.id]);
      expect(await search('Sales')).toEqual([]); // a prefix, not a substring of the company name
      expect(await search('%')).toEqual([]);
      expect((await list(api, '?keyword=')).totalItems).toBe(5); // empty: no filter
      expect((await list(api, `?keyword=${tag}&perPage=1`)).totalItems).toBe(4); // the total counts the matches
    });

    it('counts trailing spaces and control characters like any character: code point order, and found by a keyword they follow (X9, D33)', async () => {
      // MySQL's and MariaDB's utf8mb4_bin pad with spaces: `bolt` tied `bolt `, and `bolt\t…` sorted
      // below `bolt`, outside the keyword's index range (docs/partners-indexes.md)
      const { apiKey, api } = await vendor();
      const tag = unique('p');
      const named = async (suffix: string, at: string) =>
        (await invite(apiKey, at, { companyName: `${tag}${suffix}` })).id;
      const spaced = await named(' ', '2026-05-01T00:00:00.000Z');
      const tabbed = await named('\tGmbH', '2026-05-02T00:00:00.000Z');
      const bare = await named('', '2026-05-03T00:00:00.000Z');
      const newline = await named('\nLtd', '2026-05-04T00:00:00.000Z');
      const letter = await named('x', '2026-05-05T00:00:00.000Z');
      const byName = `?sortBy=companyName&keyword=${encodeURIComponent(tag)}`;
      const codePointOrder = [bare, tabbed, newline, spaced, letter];
      expect(ids(await list(api, `${byName}&sortDirection=asc`))).toEqual(codePointOrder);
      expect(ids(await list(api, `${byName}&sortDirection=desc`))).toEqual([...codePointOrder].reverse());
      expect((await list(api, `?keyword=${encodeURIComponent(tag)}&perPage=1`)).totalItems).toBe(5);
    });

    it('type keeps one type (D16); partners without a type match neither', async () => {
      const { apiKey, api } = await vendor();
      const reseller = await invite(apiKey, '2026-06-01T00:00:00.000Z', { type: 'RESELLER' });
      const distributor = await invite(apiKey, '2026-06-02T00:00:00.000Z', { type: 'DISTRIBUTOR' });
      await invite(apiKey, '2026-06-03T00:00:00.000Z', { type: null });
      const reseller2 = await invite(apiKey, '2026-06-04T00:00:00.000Z', {
        type: 'RESELLER',
        companyName: 'Zed',
      });
      expect(ids(await list(api, '?type=RESELLER'))).toEqual([reseller2.id, reseller.id]);
      expect(await list(api, '?type=DISTRIBUTOR')).toMatchObject({
        totalItems: 1,
        data: [{ id: distributor.id }],
      });
      expect(ids(await list(api, '?type=RESELLER&keyword=zE'))).toEqual([reseller2.id]);
      expect((await list(api)).totalItems).toBe(4);
    });

    it('lists a partner shared by two vendors (D20) for both, and never another vendor’s partner (D25)', async () => {
      const a = await vendor();
      const b = await vendor();
      const c = await vendor();
      const shared = await invite(a.apiKey, '2026-07-01T00:00:00.000Z');
      const onlyA = await invite(a.apiKey, '2026-07-02T00:00:00.000Z');
      const onlyB = await invite(b.apiKey, '2026-07-03T00:00:00.000Z');
      // B invites the shared partner's contact: the partner is connected to B, not created again (D20)
      const connected = await invite(b.apiKey, '2026-07-04T00:00:00.000Z', {
        contactEmailAddress: shared.contactEmailAddress,
        companyName: 'ignored for an existing partner',
      });
      expect(connected.id).toBe(shared.id);
      expect(ids(await list(a.api))).toEqual([onlyA.id, shared.id]);
      // the shared partner is listed as stored: its own createdAt and name, whoever connected it later
      const forB = await list(b.api);
      expect(ids(forB)).toEqual([onlyB.id, shared.id]);
      expect(forB.data[1]).toMatchObject({ companyName: shared.companyName, createdAt: shared.createdAt });
      expect(ids(await list(b.api, `?keyword=${encodeURIComponent(shared.companyName)}`))).toEqual([
        shared.id,
      ]);
      expect(await list(c.api)).toMatchObject({ totalItems: 0, data: [] });
    });

    it('refuses bad parameters with VALIDATION_FAILED naming every one of them (D18, D33, D39)', async () => {
      const { api } = await vendor();
      const cases: [string, string[]][] = [
        ['?page=-1', ['page']],
        ['?perPage=0', ['perPage']],
        ['?perPage=101', ['perPage']],
        ['?perPage=2.5', ['perPage']],
        ['?page=1e2', ['page']],
        ['?sortDirection=up', ['sortDirection']],
        ['?type=reseller', ['type']],
        ['?type=OTHER', ['type']],
        ['?page=1&page=2', ['page']],
        ['?keyword=a&keyword=b', ['keyword']],
        [`?keyword=${'k'.repeat(256)}`, ['keyword']],
        ['?page=x&perPage=1000&sortDirection=sideways&type=x', ['page', 'perPage', 'sortDirection', 'type']],
      ];
      for (const [query, fields] of cases) {
        const response = await api.get(`/partners${query}`);
        expect([query, response.status, response.body.message]).toEqual([query, 400, 'VALIDATION_FAILED']);
        expect([query, errorFields(response.body).sort()]).toEqual([query, [...fields].sort()]);
      }
      // a keyword of exactly 255 characters and unknown parameters are fine
      expect((await api.get(`/partners?keyword=${'k'.repeat(255)}&colour=red`)).status).toBe(200);
    });

    it('needs an API key (D7)', async () => {
      const response = await t.http.get('/api/v1/vendors/partners');
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ success: false, message: 'API_KEY_MISSING', data: null });
    });
  });
});
