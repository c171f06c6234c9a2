import { ProbeController } from '../support/probe.controller';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';
import { MAX_NESTING } from '../../src/shared/http/json-body';

/**
 * The HTTP edge every endpoint shares (success envelope, error shape, body handling, validation),
 * exercised through a probe controller mounted only in this test app.
 */
describe('HTTP edge', () => {
  let t: TestApp;
  let apiKey: string;
  const valid = {
    name: 'Ada',
    email: 'ada@example.com',
    items: [{ firstName: 'Bo', emailAddress: 'bo@example.com' }],
  };

  beforeAll(async () => {
    t = await createTestApp({ controllers: [ProbeController] });
    ({ apiKey } = await createVendor(t.app));
  });
  afterAll(() => t.close());

  const post = (path: string) => t.http.post(`/api/v1/vendors/probe/${path}`).set('X-API-KEY', apiKey);
  const put = (path: string) => t.http.put(`/api/v1/vendors/probe/${path}`).set('X-API-KEY', apiKey);

  function expectStandardError(
    response: { status: number; body: Record<string, unknown> },
    status: number,
    code: string,
  ) {
    expect(response.status).toBe(status);
    expect(Object.keys(response.body).sort()).toEqual([
      'errors',
      'message',
      'status',
      'success',
      'timestamp',
    ]);
    expect(response.body).toMatchObject({ message: code, status, success: false });
    expect(response.body.timestamp).toMatch(ISO_DATETIME);
  }

  describe('success envelope (D1, D3)', () => {
    it('answers 200 (also for POST) with success, message, data and an ISO timestamp', async () => {
      const response = await post('5').send(valid);
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Object.keys(response.body).sort()).toEqual(['data', 'message', 'success', 'timestamp']);
      expect(response.body).toMatchObject({ success: true, message: 'LEAD_CREATE_SUCCESSFUL' });
      expect(response.body.timestamp).toMatch(ISO_DATETIME);
      expect(response.body.data).toMatchObject({ itemId: 5, body: valid });
    });

    it('carries message null where no success code is listed', async () => {
      const response = await put('5/optional');
      expect(response.status).toBe(200);
      expect(response.body.message).toBeNull();
    });

    it('echoes a sane X-Request-Id and makes one otherwise', async () => {
      const echoed = await post('5').set('X-Request-Id', 'trace-123').send(valid);
      expect(echoed.headers['x-request-id']).toBe('trace-123');
      const made = await post('5').set('X-Request-Id', 'bad id with spaces').send(valid);
      expect(made.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    });
  });

  describe('body syntax (D6, D38)', () => {
    it('answers invalid JSON with 400 INVALID_REQUEST and errors []', async () => {
      const response = await post('5').set('Content-Type', 'application/json').send('{"name": "Ada",');
      expectStandardError(response, 400, 'INVALID_REQUEST');
      expect(response.body.errors).toEqual([]);
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"text"'],
      ['a number', '42'],
      ['null', 'null'],
    ])('answers a JSON body that is %s with 400 INVALID_REQUEST', async (_label, body) => {
      expectStandardError(
        await post('5').set('Content-Type', 'application/json').send(body),
        400,
        'INVALID_REQUEST',
      );
    });

    /** `{"name": ..., "deep": [[...]]}` nested `depth` levels in all, the outer object included. */
    const nested = (depth: number) =>
      `{"name":"Ada","email":"ada@example.com","items":[{"firstName":"Bo","emailAddress":"bo@example.com"}],"deep":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

    it(`accepts a body nested ${MAX_NESTING} levels, and answers a deeper one 400 INVALID_REQUEST, never a 500`, async () => {
      expect((await post('5').set('Content-Type', 'application/json').send(nested(MAX_NESTING))).status).toBe(
        200,
      );
      for (const depth of [MAX_NESTING + 1, 5000, 100_000]) {
        const response = await post('5').set('Content-Type', 'application/json').send(nested(depth));
        expectStandardError(response, 400, 'INVALID_REQUEST');
      }
      const lead = await t.http
        .post('/api/v1/vendors/partners/1/leads')
        .set('X-API-KEY', apiKey)
        .set('Content-Type', 'application/json')
        .send(`{"firstName":${'['.repeat(3000)}${']'.repeat(3000)}}`);
      expectStandardError(lead, 400, 'INVALID_REQUEST');
    });

    it('answers a body sent with another Content-Type with 400 INVALID_REQUEST', async () => {
      const text = await post('5').set('Content-Type', 'text/plain').send(JSON.stringify(valid));
      expectStandardError(text, 400, 'INVALID_REQUEST');
      const form = await post('5').set('Content-Type', 'application/x-www-form-urlencoded').send('name=Ada');
      expectStandardError(form, 400, 'INVALID_REQUEST');
    });

    it('accepts application/json with parameters (charset)', async () => {
      const response = await post('5')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify(valid));
      expect(response.status).toBe(200);
    });

    it('answers a missing body where one is required with 400 INVALID_REQUEST', async () => {
      expectStandardError(await post('5'), 400, 'INVALID_REQUEST');
    });

    it('accepts an empty body where the body is optional, but not invalid JSON', async () => {
      const empty = await put('5/optional');
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual({ comment: null, hadBody: false });
      const withComment = await put('5/optional').send({ comment: 'why' });
      expect(withComment.body.data).toEqual({ comment: 'why', hadBody: true });
      expectStandardError(
        await put('5/optional').set('Content-Type', 'application/json').send('{oops'),
        400,
        'INVALID_REQUEST',
      );
    });

    it('ignores any body where the operation takes none (approve, archive: D38)', async () => {
      const response = await put('5/ignored').set('Content-Type', 'application/json').send('{oops');
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ itemId: 5 });
    });

    it('answers a body over 1 MiB with 413 in the standard shape, message INVALID_REQUEST (D6)', async () => {
      const big = JSON.stringify({ ...valid, name: 'x'.repeat(2 * 1024 * 1024) });
      const response = await post('5').set('Content-Type', 'application/json').send(big);
      expectStandardError(response, 413, 'INVALID_REQUEST');
      expect(response.body.errors).toEqual([]);
    });

    it('accepts a body of exactly 1 MiB', async () => {
      const base = JSON.stringify({ ...valid, notes: '' });
      const body = JSON.stringify({ ...valid, notes: 'n'.repeat(1_048_576 - base.length) });
      expect(Buffer.byteLength(body)).toBe(1_048_576);
      const response = await post('5').set('Content-Type', 'application/json').send(body);
      // the body is read; it then fails validation (notes is limited to 5,000 characters), not with 413
      expectStandardError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.errors).toEqual([{ field: 'notes', error: 'must be at most 5000 characters' }]);
    });

    it('drops __proto__ and constructor.prototype keys like any unknown field (D5), polluting nothing', async () => {
      const response = await post('5')
        .set('Content-Type', 'application/json')
        .send(
          JSON.stringify(valid).replace(
            '{',
            '{"__proto__": {"admin": true}, "constructor": {"prototype": {"admin": true}},',
          ),
        );
      expect(response.status).toBe(200);
      expect(response.body.data.body).toEqual(valid);
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });
  });

  describe('validation (D12-D18, D37)', () => {
    it('lists a wrong JSON type and two missing fields together, by name (D17, D18)', async () => {
      const response = await post('5').send({
        name: 42,
        items: [{ firstName: 'x', emailAddress: 'x@example.com' }],
      });
      expectStandardError(response, 400, 'VALIDATION_FAILED');
      const fields = (response.body.errors as { field: string }[]).map((e) => e.field).sort();
      expect(fields).toEqual(['email', 'name']);

      const twoMissing = await post('5').send({ count: '3' });
      expectStandardError(twoMissing, 400, 'VALIDATION_FAILED');
      expect((twoMissing.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
        'count',
        'email',
        'items',
        'name',
      ]);
    });

    it('never coerces: a numeric string for an integer, a number for a string, an object for an id (D17)', async () => {
      const response = await post('5').send({ ...valid, count: '7', name: 12, email: { a: 1 } });
      expect((response.body.errors as { field: string }[]).map((e) => e.field).sort()).toEqual([
        'count',
        'email',
        'name',
      ]);
    });

    it('names fields inside list elements like items[1].emailAddress (D13)', async () => {
      const response = await post('5').send({
        ...valid,
        items: [
          { firstName: 'ok', emailAddress: 'ok@example.com' },
          { firstName: '', emailAddress: 'not-an-email' },
          'not an object',
        ],
      });
      expectStandardError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.errors).toEqual([
        { field: 'items[1].firstName', error: 'must not be empty or blank' },
        { field: 'items[1].emailAddress', error: 'must be a well-formed email address' },
        { field: 'items[2]', error: 'must be an object' },
      ]);
    });

    it('names every list element that is not an object, arrays included, never a 500 (D13, D17)', async () => {
      const nested = await post('5').send({ ...valid, items: [[]] });
      expectStandardError(nested, 400, 'VALIDATION_FAILED');
      expect(nested.body.errors).toEqual([{ field: 'items[0]', error: 'must be an object' }]);
      const mixed = await post('5').send({
        ...valid,
        items: [['x'], 'y', { firstName: 'ok', emailAddress: 'ok@example.com' }, null],
      });
      expect(mixed.body.errors).toEqual([
        { field: 'items[0]', error: 'must be an object' },
        { field: 'items[1]', error: 'must be an object' },
        { field: 'items[3]', error: 'must be an object' },
      ]);
      const notAList = await post('5').send({ ...valid, items: {} });
      expect(notAList.body.errors).toEqual([{ field: 'items', error: 'must be a list' }]);
    });

    it('refuses text with an unpaired surrogate instead of storing something else (D14)', async () => {
      const response = await post('5')
        .set('Content-Type', 'application/json')
        .send(
          '{"name":"\\ud800","email":"a@example.com","items":[{"firstName":"x","emailAddress":"x@example.com"}]}',
        );
      expectStandardError(response, 400, 'VALIDATION_FAILED');
      expect(response.body.errors).toEqual([
        { field: 'name', error: 'must be valid Unicode text (no unpaired surrogate)' },
      ]);
    });

    it('names the list itself for an empty or oversized batch', async () => {
      const empty = await post('5').send({ ...valid, items: [] });
      expect(empty.body.errors).toEqual([{ field: 'items', error: 'must hold 1 to 100 entries' }]);
      const many = Array.from({ length: 101 }, (_, i) => ({
        firstName: 'x',
        emailAddress: `u${i}@example.com`,
      }));
      const oversized = await post('5').send({ ...valid, items: many });
      expect(oversized.body.errors).toEqual([{ field: 'items', error: 'must hold 1 to 100 entries' }]);
    });

    it('refuses blank required strings and counts length in code points (D14)', async () => {
      for (const blank of ['   ', '\u0085', '\u00a0\u2028\ufeff'])
        expect((await post('5').send({ ...valid, name: blank })).body.errors).toEqual([
          { field: 'name', error: 'must not be empty or blank' },
        ]);
      const emoji255 = '😀'.repeat(255);
      const ok = await post('5').send({ ...valid, name: emoji255 });
      expect(ok.status).toBe(200);
      expect(ok.body.data.body.name).toBe(emoji255);
      const tooLong = await post('5').send({ ...valid, name: `${emoji255}😀` });
      expect(tooLong.body.errors).toEqual([{ field: 'name', error: 'must be at most 255 characters' }]);
    });

    it('counts variation selectors too, so an over-long string never reaches the database (D14)', async () => {
      const response = await post('5').send({ ...valid, name: `a${'\uFE0F'.repeat(255)}` });
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'name', error: 'must be at most 255 characters' }]);
    });

    it('stores strings exactly as sent, without trimming (D14)', async () => {
      const response = await post('5').send({ ...valid, name: '  Ada  ' });
      expect(response.body.data.body.name).toBe('  Ada  ');
    });

    it('drops unknown and read-only fields without error (D5)', async () => {
      const response = await post('5').send({
        ...valid,
        id: 9,
        createdAt: 'yesterday',
        surprise: { deep: true },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.body).toEqual(valid);
    });

    it.each(['abc', '0', '1.5', '-1', '1e3', '9007199254740992'])(
      'answers the path id %j with 400 VALIDATION_FAILED naming it (D12, D39)',
      async (id) => {
        const response = await post(id).send(valid);
        expectStandardError(response, 400, 'VALIDATION_FAILED');
        expect(response.body.errors).toEqual([{ field: 'itemId', error: 'must be a positive integer' }]);
      },
    );

    it('lists a bad path id and bad body fields in one answer, path first (D18, D37)', async () => {
      const response = await post('abc').send({ ...valid, name: '' });
      expect((response.body.errors as { field: string }[]).map((e) => e.field)).toEqual(['itemId', 'name']);
    });

    it('checks body syntax before path ids (D37)', async () => {
      const response = await post('abc').set('Content-Type', 'application/json').send('{oops');
      expectStandardError(response, 400, 'INVALID_REQUEST');
    });

    it('validates query parameters by D39 and lists every failure', async () => {
      const get = (query: string) =>
        t.http.get(`/api/v1/vendors/probe/list?${query}`).set('X-API-KEY', apiKey);
      const ok = await get(
        'page=01&perPage=100&status=3&status=7&day=2026-02-28&archived=true&sortDirection=ASC&sortBy=nonsense&unknown=1',
      );
      expect(ok.status).toBe(200);
      expect(ok.body.data).toEqual({
        page: 1,
        perPage: 100,
        status: [3, 7],
        day: '2026-02-28T00:00:00.000Z',
        archived: true,
        direction: 'asc',
        sortBy: 'createdAt',
      });
      const bad = await get('page=-1&perPage=101&status=x&day=2026-02-30&archived=TRUE&sortDirection=up');
      expectStandardError(bad, 400, 'VALIDATION_FAILED');
      expect((bad.body.errors as { field: string }[]).map((e) => e.field)).toEqual([
        'page',
        'perPage',
        'status',
        'day',
        'archived',
        'sortDirection',
      ]);
      const twice = await get('page=1&page=2');
      expect(twice.body.errors).toEqual([{ field: 'page', error: 'must not be given more than once' }]);
    });
  });

  describe('unexpected errors', () => {
    it('answers 500 INTERNAL_SERVER_ERROR without stack trace or SQL in the body', async () => {
      const response = await t.http.get('/api/v1/vendors/probe/boom').set('X-API-KEY', apiKey);
      expectStandardError(response, 500, 'INTERNAL_SERVER_ERROR');
      expect(response.body.errors).toEqual([]);
      expect(response.text).not.toMatch(/secret|SELECT|at .*\.ts|stack/i);
    });
  });
});
