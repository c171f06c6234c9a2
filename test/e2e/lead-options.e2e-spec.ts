import { vendorApi } from '../support/lead-fixtures';
import { ISO_DATETIME, TestApp, createLeadOption, createTestApp, createVendor } from '../support/test-app';

/** X11: GET /lead-options, the caller's vendor's lead sources and statuses. */
describe('GET /lead-options (X11)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the vendor’s sources and statuses, each ordered by id, with exactly id and label', async () => {
    const { vendorId, apiKey } = await createVendor(t.app);
    const hot = await createLeadOption(t.app, vendorId, 'status', 'Hot');
    const web = await createLeadOption(t.app, vendorId, 'source', 'Web');
    const cold = await createLeadOption(t.app, vendorId, 'status', 'Cold ❄');
    const fair = await createLeadOption(t.app, vendorId, 'source', 'Trade fair');

    const response = await vendorApi(t.http, apiKey).get('/lead-options');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      message: null,
      data: {
        sources: [
          { id: web, label: 'Web' },
          { id: fair, label: 'Trade fair' },
        ],
        statuses: [
          { id: hot, label: 'Hot' },
          { id: cold, label: 'Cold ❄' },
        ],
      },
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
  });

  it('never shows another vendor’s values', async () => {
    const mine = await createVendor(t.app);
    const other = await createVendor(t.app);
    const own = await createLeadOption(t.app, mine.vendorId, 'source', 'Mine');
    await createLeadOption(t.app, other.vendorId, 'source', 'Theirs');
    await createLeadOption(t.app, other.vendorId, 'status', 'Theirs too');

    const response = await vendorApi(t.http, mine.apiKey).get('/lead-options');

    expect(response.body.data).toEqual({ sources: [{ id: own, label: 'Mine' }], statuses: [] });
  });

  it('answers two empty lists for a vendor without options', async () => {
    const { apiKey } = await createVendor(t.app);
    const response = await vendorApi(t.http, apiKey).get('/lead-options');
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ sources: [], statuses: [] });
  });

  it('lists the ids a lead’s source and status accept (D15)', async () => {
    const { vendorId, apiKey } = await createVendor(t.app);
    await createLeadOption(t.app, vendorId, 'source', 'Web');
    await createLeadOption(t.app, vendorId, 'status', 'Hot');
    const api = vendorApi(t.http, apiKey);
    const { sources, statuses } = (await api.get('/lead-options')).body.data;
    const partner = await api.post('/partners').send({
      companyName: 'P',
      contactName: 'C',
      contactEmailAddress: `${vendorId}.options@partner.test`,
    });
    const lead = await api.post(`/partners/${partner.body.data.id}/leads`).send({
      firstName: 'Ada',
      emailAddress: 'ada@example.test',
      companyName: 'C',
      source: sources[0].id,
      status: statuses[0].id,
    });
    expect(lead.status).toBe(200);
  });

  it('needs an API key; query parameters are ignored (D7, D39)', async () => {
    const missing = await t.http.get('/api/v1/vendors/lead-options');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ success: false, message: 'API_KEY_MISSING', data: null });
    const { apiKey } = await createVendor(t.app);
    const withQuery = await vendorApi(t.http, apiKey).get('/lead-options?kind=source&kind=x');
    expect(withQuery.status).toBe(200);
  });
});
