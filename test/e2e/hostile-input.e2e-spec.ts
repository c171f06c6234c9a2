import { RawResponse, rawExchange } from '../support/raw-http';
import { invitePartner } from '../support/lead-fixtures';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

const NS = '/api/v1/vendors';

/**
 * Requests as an attacker or a broken client writes them, byte for byte on a real socket (an HTTP
 * client would refuse or repair most of them). Every answer is one of the contract's two shapes
 * with its status, authentication comes first (D8), and nothing is a 5xx.
 */
describe('hostile input at the HTTP edge', () => {
  let t: TestApp;
  let apiKey: string;
  let port: number;
  let partnerId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createVendor(t.app));
    partnerId = await invitePartner(t.http, apiKey);
    await t.app.listen(0, '127.0.0.1');
    port = Number(new URL(await t.app.getUrl()).port);
  });
  afterAll(() => t.close());

  /** One request as raw bytes: `Connection: close` so that the server ends the exchange. */
  function raw(
    method: string,
    target: string,
    headers: [string, string][] = [],
    body?: string | Buffer,
  ): Buffer {
    const lines = [`${method} ${target} HTTP/1.1`, 'Host: localhost', 'Connection: close'];
    for (const [name, value] of headers) lines.push(`${name}: ${value}`);
    if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
    return Buffer.concat([
      Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body) : (body ?? Buffer.alloc(0)),
    ]);
  }

  async function send(bytes: Buffer | string): Promise<RawResponse> {
    const exchange = await rawExchange(port, bytes, { timeoutMs: 5000 });
    expect(exchange.responses).toHaveLength(1);
    return exchange.responses[0]!;
  }

  const key = (value = apiKey): [string, string] => ['X-API-KEY', value];
  const json: [string, string] = ['Content-Type', 'application/json'];

  // Every answer carries a request id, also those the HTTP server gives before a request exists
  // (unreadable HTTP, 431, CONNECT): docs/api.md "Requests".
  function expectRequestId(response: RawResponse) {
    expect(response.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
  }

  function expectAuth(response: RawResponse, message: string) {
    expectRequestId(response);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      success: false,
      message,
      data: null,
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
  }

  function expectStandard(response: RawResponse, status: number, message: string, fields?: string[]) {
    expectRequestId(response);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({
      message,
      status,
      success: false,
      errors: expect.any(Array),
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
    if (fields) {
      expect((response.body as { errors: { field: string }[] }).errors.map((e) => e.field)).toEqual(fields);
    }
  }

  describe('percent-encoding that does not decode, in the path', () => {
    it.each(['%', '%ZZ', '%C3%28', '1%', '%ED%A0%80'])(
      'PUT leads/%s/approve: 401 first without a valid key, then VALIDATION_FAILED naming leadId (D8, D12)',
      async (id) => {
        const path = `${NS}/leads/${id}/approve`;
        expectAuth(await send(raw('PUT', path)), 'API_KEY_MISSING');
        expectAuth(await send(raw('PUT', path, [key('prm_wrong')])), 'INVALID_API_KEY');
        expectStandard(await send(raw('PUT', path, [key()])), 400, 'VALIDATION_FAILED', ['leadId']);
      },
    );

    it('in a segment that is not an id: 404 with a valid key; outside the namespace: UNKNOWN_API_NAMESPACE', async () => {
      expectStandard(await send(raw('GET', `${NS}/le%ZZads/1`, [key()])), 404, 'RESOURCE_NOT_FOUND');
      expectAuth(await send(raw('GET', '/api/v1/vendor%ZZ/leads/1', [key()])), 'UNKNOWN_API_NAMESPACE');
      expectAuth(await send(raw('GET', '/%', [key()])), 'UNKNOWN_API_NAMESPACE');
    });

    it('a NUL or a slash sent percent-encoded in an id is an id that is not a number', async () => {
      for (const id of ['1%00', '1%2F2', '%E2%82%AC']) {
        expectAuth(await send(raw('GET', `${NS}/leads/${id}`)), 'API_KEY_MISSING');
        expectStandard(await send(raw('GET', `${NS}/leads/${id}`, [key()])), 400, 'VALIDATION_FAILED', [
          'leadId',
        ]);
      }
    });

    it('bytes that are not ASCII in the request line: the HTTP parser refuses them, 400 INVALID_REQUEST', async () => {
      const bytes = Buffer.concat([
        Buffer.from(`GET ${NS}/leads/`),
        Buffer.from([0xc3, 0x28, 0xff]),
        Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n'),
      ]);
      expectStandard(await send(bytes), 400, 'INVALID_REQUEST');
    });
  });

  describe('path ids of any length (D12, D39)', () => {
    it.each([101, 1000, 10_000])(
      'an id of %d digits: 401 without a valid key, VALIDATION_FAILED naming the id with one',
      async (digits) => {
        const path = `${NS}/leads/${'9'.repeat(digits)}/approve`;
        expectAuth(await send(raw('PUT', path)), 'API_KEY_MISSING');
        expectAuth(await send(raw('PUT', path, [key('prm_wrong')])), 'INVALID_API_KEY');
        expectStandard(await send(raw('PUT', path, [key()])), 400, 'VALIDATION_FAILED', ['leadId']);
        const users = `${NS}/partners/${'1'.repeat(digits)}/users`;
        expectStandard(await send(raw('GET', users, [key()])), 400, 'VALIDATION_FAILED', ['partnerId']);
      },
    );

    it('an id of 200 letters is VALIDATION_FAILED too', async () => {
      const response = await send(raw('GET', `${NS}/leads/${'x'.repeat(200)}`, [key()]));
      expectStandard(response, 400, 'VALIDATION_FAILED', ['leadId']);
    });
  });

  describe('query strings', () => {
    it.each(['%C3%28', '%ZZ', '%', '%FF'])(
      'keyword=%s, which does not decode to UTF-8 text: VALIDATION_FAILED naming keyword',
      async (value) => {
        const path = `${NS}/partners/${partnerId}/leads?keyword=${value}`;
        expectAuth(await send(raw('GET', path)), 'API_KEY_MISSING');
        expectStandard(await send(raw('GET', path, [key()])), 400, 'VALIDATION_FAILED', ['keyword']);
      },
    );

    it('an undecodable value of an unknown parameter is ignored like the parameter (D39)', async () => {
      const response = await send(raw('GET', `${NS}/partners/${partnerId}/leads?other=%ZZ&%ZZ=1`, [key()]));
      expect(response.status).toBe(200);
    });

    it('huge numbers and numbers in other notations are VALIDATION_FAILED naming each parameter', async () => {
      const response = await send(
        raw(
          'GET',
          `${NS}/partners/${partnerId}/leads?page=${'9'.repeat(400)}&perPage=1e2&status=18446744073709551616&source=-0`,
          [key()],
        ),
      );
      expectStandard(response, 400, 'VALIDATION_FAILED', ['page', 'perPage', 'status', 'source']);
    });
  });

  describe('bodies', () => {
    const lead = (fields: string) =>
      `{"firstName":"Ada","emailAddress":"ada@hostile.example","companyName":"Co",${fields}}`;
    const create = (body: string | Buffer, headers: [string, string][] = [key(), json]) =>
      send(raw('POST', `${NS}/partners/${partnerId}/leads`, headers, body));

    it('bytes that are not UTF-8: INVALID_REQUEST (JSON is UTF-8), never stored as U+FFFD; 401 first', async () => {
      const body = Buffer.concat([
        Buffer.from('{"firstName":"A'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('","emailAddress":"ada@hostile.example","companyName":"Co"}'),
      ]);
      expectStandard(await create(body), 400, 'INVALID_REQUEST');
      expectAuth(await create(body, [json]), 'API_KEY_MISSING');
      // an overlong encoding of "/" and a UTF-8-encoded surrogate are not UTF-8 either
      for (const bytes of [
        [0xc0, 0xaf],
        [0xed, 0xa0, 0x80],
      ]) {
        const bad = Buffer.concat([Buffer.from(lead('"city":"')), Buffer.from(bytes), Buffer.from('"}')]);
        expectStandard(await create(bad), 400, 'INVALID_REQUEST');
      }
    });

    it('huge numbers: VALIDATION_FAILED naming each field, never a 500 or a silent Infinity', async () => {
      const response = await create(
        lead(`"leadAge":1e400,"source":18446744073709551616,"status":${'9'.repeat(100_000)}`),
      );
      expectStandard(response, 400, 'VALIDATION_FAILED', ['source', 'status', 'leadAge']);
      const negative = await create(lead('"leadAge":-1e400'));
      expectStandard(negative, 400, 'VALIDATION_FAILED', ['leadAge']);
    });

    it('a body with a NUL in a string is stored as sent (it is valid JSON and valid text)', async () => {
      const response = await create(lead('"city":"a\\u0000b","externalId":"x\\u0000"'));
      expect(response.status).toBe(200);
      expect((response.body as { data: { city: string } }).data.city).toBe('a\u0000b');
    });
  });

  describe('headers', () => {
    const lead1 = `${NS}/leads/1`;

    it('two X-API-KEY headers, even both valid: 401 INVALID_API_KEY (the key is never guessed from two)', async () => {
      for (const pair of [
        [key('prm_wrong'), key()],
        [key(), key('prm_wrong')],
        [key(), key()],
      ]) {
        expectAuth(await send(raw('GET', lead1, pair)), 'INVALID_API_KEY');
      }
    });

    it('an X-API-KEY of blanks is missing; of text that is no key, invalid', async () => {
      expectAuth(await send(raw('GET', lead1, [key(' \t ')])), 'API_KEY_MISSING');
      expectAuth(await send(raw('GET', lead1, [key('é'.repeat(1000))])), 'INVALID_API_KEY');
      // blanks around a header value are not part of it (RFC 9110 5.5): the key is the key
      expect((await send(raw('GET', `${NS}/nothing`, [key(` ${apiKey} `)]))).status).toBe(404);
    });

    it('a NUL or another control byte in X-API-KEY: the HTTP parser refuses the header block, 400 INVALID_REQUEST', async () => {
      expectStandard(await send(raw('GET', lead1, [key('prm_\0abc')])), 400, 'INVALID_REQUEST');
      expectStandard(await send(raw('GET', lead1, [key(`${apiKey}\u0001`)])), 400, 'INVALID_REQUEST');
    });

    it('a header block over 16 KiB: 431 in the standard shape, whatever the key', async () => {
      for (const headers of [[], [key()]] as [string, string][][]) {
        const response = await send(raw('GET', lead1, [...headers, ['X-Filler', 'a'.repeat(17_000)]]));
        expectStandard(response, 431, 'INVALID_REQUEST');
      }
      const manyHeaders = Array.from({ length: 4000 }, (_, i): [string, string] => [`X-H${i}`, 'v']);
      expectStandard(await send(raw('GET', lead1, manyHeaders)), 431, 'INVALID_REQUEST');
    });

    it('an Expect header Node does not know is ignored: the request is answered as usual', async () => {
      expectAuth(await send(raw('GET', lead1, [['Expect', 'magic']])), 'API_KEY_MISSING');
      const withKey = await send(raw('GET', `${NS}/nothing`, [key(), ['Expect', 'magic']]));
      expectStandard(withKey, 404, 'RESOURCE_NOT_FOUND');
    });

    it('HTTP/1.1 without a Host header is answered as usual (authentication first)', async () => {
      const head = (extra: string) => `GET ${NS}/nothing HTTP/1.1\r\nConnection: close\r\n${extra}\r\n`;
      expectAuth(await send(head('')), 'API_KEY_MISSING');
      expectStandard(await send(head(`X-API-KEY: ${apiKey}\r\n`)), 404, 'RESOURCE_NOT_FOUND');
    });
  });

  describe('methods', () => {
    it.each(['OPTIONS', 'TRACE', 'PROPFIND', 'PURGE', 'DELETE', 'PATCH', 'SEARCH'])(
      '%s: 401 without a key, 404 RESOURCE_NOT_FOUND with one where no such route exists (D8, D11)',
      async (method) => {
        expectAuth(await send(raw(method, `${NS}/leads/1/approve`)), 'API_KEY_MISSING');
        expectAuth(await send(raw(method, '/elsewhere')), 'UNKNOWN_API_NAMESPACE');
        expectStandard(await send(raw(method, `${NS}/leads/1/approve`, [key()])), 404, 'RESOURCE_NOT_FOUND');
      },
    );

    it('HEAD of a route answers its GET status with the headers only', async () => {
      const exchange = await rawExchange(port, raw('HEAD', `${NS}/partners/${partnerId}/users`, [key()]));
      expect(exchange.responses[0]!.status).toBe(200);
      const missing = await rawExchange(port, raw('HEAD', `${NS}/partners/${partnerId}/users`));
      expect(missing.responses[0]!.status).toBe(401);
    });

    it('a method the HTTP parser does not know: 400 INVALID_REQUEST in the standard shape', async () => {
      expectStandard(await send(raw('FOO', `${NS}/leads/1`, [key()])), 400, 'INVALID_REQUEST');
    });

    it('CONNECT (its target is never inside the namespace): 401 UNKNOWN_API_NAMESPACE, connection closed', async () => {
      const exchange = await rawExchange(
        port,
        'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
      );
      expect(exchange.responses).toHaveLength(1);
      expectAuth(exchange.responses[0]!, 'UNKNOWN_API_NAMESPACE');
      expect(exchange.closedBy).not.toBe('never');
    });
  });

  describe('HTTP the parser cannot read, where the connection still allows an answer', () => {
    const chunkedPost = (path: string, headers: string) =>
      `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${headers}` +
      'Transfer-Encoding: chunked\r\n\r\nZZ\r\nab\r\n';

    it('a broken chunked body: authentication still first (D8), then 400 INVALID_REQUEST from the application', async () => {
      const answers = async (bytes: string) =>
        (await rawExchange(port, bytes, { timeoutMs: 5000 })).responses;
      const [missing] = await answers(chunkedPost(`${NS}/partners`, ''));
      expectAuth(missing!, 'API_KEY_MISSING');
      const [wrong] = await answers(chunkedPost(`${NS}/partners`, 'X-API-KEY: prm_wrong\r\n'));
      expectAuth(wrong!, 'INVALID_API_KEY');
      const [outside] = await answers(chunkedPost('/upload', ''));
      expectAuth(outside!, 'UNKNOWN_API_NAMESPACE');
      const exchange = await rawExchange(port, chunkedPost(`${NS}/partners`, `X-API-KEY: ${apiKey}\r\n`));
      expect(exchange.responses).toHaveLength(1);
      expectStandard(exchange.responses[0]!, 400, 'INVALID_REQUEST');
      // answered by the application (request id, headers), and the connection closed
      expect(exchange.responses[0]!.headers['x-request-id']).toBeDefined();
      expect(exchange.responses[0]!.headers.connection).toBe('close');
      expect(exchange.closedBy).not.toBe('never');
    });

    it('broken bytes after a complete request: that request is answered first, then 400, then the connection closes', async () => {
      for (const garbage of [
        'FOO / HTTP/1.1\r\n\r\n',
        'GET /a HTTP/1.1\r\nHost: x\r\nX-Bad\u0001: y\r\n\r\n',
        '\u0000\u0001\u0002\r\n\r\n',
      ]) {
        const exchange = await rawExchange(
          port,
          `GET ${NS}/partners/${partnerId}/users HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n${garbage}`,
          { timeoutMs: 5000 },
        );
        expect(exchange.responses.map((r) => r.status)).toEqual([200, 400]);
        expectStandard(exchange.responses[1]!, 400, 'INVALID_REQUEST');
        expect(exchange.closedBy).not.toBe('never');
      }
    });

    it('two pipelined requests and then broken bytes: both answered in order, then 400', async () => {
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`;
      const exchange = await rawExchange(
        port,
        get(`${NS}/partners/${partnerId}/users`) + get(`${NS}/nothing`) + 'FOO / HTTP/1.1\r\n\r\n',
        { timeoutMs: 5000 },
      );
      expect(exchange.responses.map((r) => r.status)).toEqual([200, 404, 400]);
    });

    it.each([
      [
        'Content-Length and Transfer-Encoding together',
        'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      ],
      ['two Content-Lengths', 'Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello!'],
      ['a Content-Length that is no number', 'Content-Length: abc\r\n\r\n'],
      ['a header line without a colon', 'Broken header line\r\n\r\n'],
      ['a bare LF line ending inside the header block', 'X-A: 1\nX-B: 2\r\n\r\n'],
    ])('%s: 400 INVALID_REQUEST in the standard shape, the connection closed', async (_label, rest) => {
      const exchange = await rawExchange(
        port,
        `POST ${NS}/partners HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n${rest}`,
        {
          timeoutMs: 5000,
        },
      );
      expect(exchange.responses).toHaveLength(1);
      expectStandard(exchange.responses[0]!, 400, 'INVALID_REQUEST');
      expect(exchange.responses[0]!.headers.connection).toBe('close');
      expect(exchange.closedBy).not.toBe('never');
    });
  });

  it('a few hundred requests made of hostile pieces: every answer has a contract shape, none is a 5xx', async () => {
    // A fixed seed: the same requests on every run.
    let seed = 20261123;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'TRACE', 'MKCOL'];
    const paths = [
      `${NS}/partners`,
      `${NS}/partners/${partnerId}/users?page=%ZZ&perPage=1e9&sortBy=%00`,
      `${NS}/partners/${partnerId}/leads?keyword=%25%5F&status=x&status=%C3%28&archived=TRUE`,
      `${NS}/partners/${partnerId}/reinvite`,
      `${NS}/partners/%/users`,
      `${NS}/leads/${'7'.repeat(300)}`,
      `${NS}/leads/1/reject`,
      `${NS}/leads/-1/archive`,
      `${NS}/leads/%F0%9F%98%80/approve`,
      `${NS}//leads//1`,
      `${NS}/../admin`,
      '/api/v1/vendors',
      '/',
      '*',
    ];
    const bodies: (string | Buffer | undefined)[] = [
      undefined,
      '',
      '{',
      'null',
      '[]',
      '{"users":[{}]}',
      '{"comment":"\\ud800"}',
      `{"leadAge":1e999,"firstName":${'['.repeat(40)}${']'.repeat(40)}}`,
      Buffer.from([0x7b, 0xff, 0x7d]),
      '{"emailAddress":"\\"x\\r\\nRCPT TO:<a@b.example>\\"@ok.example"}',
    ];
    const keys = [undefined, apiKey, 'prm_wrong', `${apiKey}, ${apiKey}`];
    const contentTypes = [undefined, 'application/json', 'text/plain', 'application/json; charset=latin1'];
    for (let i = 0; i < 300; i += 1) {
      const headers: [string, string][] = [];
      const k = pick(keys);
      if (k !== undefined) headers.push(key(k));
      const type = pick(contentTypes);
      if (type !== undefined) headers.push(['Content-Type', type]);
      const method = pick(methods);
      const response = await send(raw(method, pick(paths), headers, pick(bodies)));
      expect(response.status).toBeLessThan(500);
      if (method === 'HEAD') continue;
      const body = response.body as Record<string, unknown>;
      const keysOf = Object.keys(body).sort().join(',');
      if (response.status === 401) expect(keysOf).toBe('data,message,success,timestamp');
      else if (response.status === 200) expect(body.success).toBe(true);
      else {
        expect(keysOf).toBe('errors,message,status,success,timestamp');
        expect(body.status).toBe(response.status);
      }
    }
  });
});
