import { connect, type Socket } from 'node:net';
import { Logger } from '@nestjs/common';
import { postHead, rawExchange } from '../support/raw-http';
import { ISO_DATETIME, TestApp, createTestApp, createVendor } from '../support/test-app';

const HEADERS_MS = 500;
const REQUEST_MS = 1000;
/** Node looks for requests past their deadline every tenth of the shorter bound (here 50 -> 100 ms). */
const CHECK_SLACK_MS = 400;
const PARTNERS = '/api/v1/vendors/partners';

function expectStandardError(body: unknown, status: number) {
  expect(body).toEqual({
    message: 'INVALID_REQUEST',
    status,
    success: false,
    errors: [],
    timestamp: expect.stringMatching(ISO_DATETIME),
  });
}

async function listening(t: TestApp): Promise<number> {
  await t.app.listen(0, '127.0.0.1');
  return Number(new URL(await t.app.getUrl()).port);
}

/**
 * Slow and stuck clients on a listening server, through raw TCP sockets: a body that does not come
 * is answered 408 and its connection closed within HTTP_REQUEST_TIMEOUT_MS, a request refused before
 * its body is read closes its connection at once, and the open connections are capped.
 */
describe('slow clients (real sockets)', () => {
  let t: TestApp;
  let apiKey: string;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS) },
    });
    ({ apiKey } = await createVendor(t.app));
    port = await listening(t);
    // a first request through the real socket, so that the timings below measure the refusal and
    // not the first request's warm-up of a fresh process (lazy loading, compilation)
    await fetch(`http://127.0.0.1:${port}${PARTNERS}`);
  });
  afterAll(() => t.close());

  it('refuses a trickled body without a key at once (401) and closes the connection without reading it', async () => {
    const exchange = await rawExchange(port, postHead(PARTNERS, 1_000_000), { trickleMs: 50 });
    expect(exchange.responses).toHaveLength(1);
    const [refusal] = exchange.responses;
    expect(refusal!.status).toBe(401);
    expect(refusal!.headers.connection).toBe('close');
    expect(refusal!.body).toMatchObject({ success: false, message: 'API_KEY_MISSING', data: null });
    expect(exchange.closedBy).not.toBe('never');
    expect(exchange.closedAfterMs).toBeLessThan(HEADERS_MS);
  });

  it('does the same for a wrong key and for a path outside the namespace', async () => {
    const wrongKey = await rawExchange(port, postHead(PARTNERS, 1_000_000, 'prm_wrong'), { trickleMs: 50 });
    expect(wrongKey.responses.map((r) => [r.status, r.headers.connection])).toEqual([[401, 'close']]);
    expect((wrongKey.responses[0]!.body as { message: string }).message).toBe('INVALID_API_KEY');
    expect(wrongKey.closedAfterMs).toBeLessThan(HEADERS_MS);
    const outside = await rawExchange(port, postHead('/upload', 1_000_000), { trickleMs: 50 });
    expect(outside.responses.map((r) => [r.status, r.headers.connection])).toEqual([[401, 'close']]);
    expect(outside.closedAfterMs).toBeLessThan(HEADERS_MS);
  });

  it('answers a trickled body with a valid key 408 INVALID_REQUEST when the request bound passes, and closes', async () => {
    const exchange = await rawExchange(port, postHead(PARTNERS, 1_000_000, apiKey), { trickleMs: 50 });
    expect(exchange.written).toBeGreaterThan(100); // it was still sending when it was cut
    expect(exchange.responses).toHaveLength(1);
    expect(exchange.responses[0]!.status).toBe(408);
    expect(exchange.responses[0]!.headers.connection).toBe('close');
    expectStandardError(exchange.responses[0]!.body, 408);
    expect(exchange.closedBy).not.toBe('never');
    expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(REQUEST_MS - 50);
    expect(exchange.closedAfterMs).toBeLessThan(REQUEST_MS + CHECK_SLACK_MS);
  });

  it('answers headers followed by no body at all 408 within the same bound', async () => {
    const exchange = await rawExchange(port, postHead(PARTNERS, 500, apiKey));
    expect(exchange.responses.map((r) => r.status)).toEqual([408]);
    expectStandardError(exchange.responses[0]!.body, 408);
    expect(exchange.closedAfterMs).toBeLessThan(REQUEST_MS + CHECK_SLACK_MS);
  });

  it('answers headers that never end 408 after the headers bound', async () => {
    const head = `GET ${PARTNERS}/1/users HTTP/1.1\r\nHost: x\r\nX-Slow: `;
    const exchange = await rawExchange(port, head, { trickleMs: 50, trickle: 'a' });
    expect(exchange.responses.map((r) => r.status)).toEqual([408]);
    expectStandardError(exchange.responses[0]!.body, 408);
    expect(exchange.closedAfterMs).toBeGreaterThanOrEqual(HEADERS_MS - 50);
    expect(exchange.closedAfterMs).toBeLessThan(HEADERS_MS + CHECK_SLACK_MS);
  });

  it('answers a declared body over 1 MiB 413 at once and closes without reading it (D6)', async () => {
    const exchange = await rawExchange(port, postHead(PARTNERS, 2 * 1024 * 1024, apiKey), { trickleMs: 50 });
    expect(exchange.responses.map((r) => [r.status, r.headers.connection])).toEqual([[413, 'close']]);
    expectStandardError(exchange.responses[0]!.body, 413);
    expect(exchange.closedBy).not.toBe('never');
    expect(exchange.closedAfterMs).toBeLessThan(HEADERS_MS);
  });

  it('answers HTTP it cannot parse 400, and headers over 16 KiB 431, in the standard shape', async () => {
    const garbage = await rawExchange(port, 'FOO / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(garbage.responses.map((r) => r.status)).toEqual([400]);
    expectStandardError(garbage.responses[0]!.body, 400);
    expect(garbage.closedBy).not.toBe('never');
    const big = await rawExchange(port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.responses.map((r) => r.status)).toEqual([431]);
    expectStandardError(big.responses[0]!.body, 431);
  });

  it('keeps the connection of a refused request that has no body (nothing is left to read)', async () => {
    const get = (key?: string) =>
      `GET ${PARTNERS}/1/users HTTP/1.1\r\nHost: x\r\n${key ? `X-API-KEY: ${key}\r\n` : ''}\r\n`;
    // two requests in one write: the second is answered on the same connection
    const exchange = await rawExchange(
      port,
      get() + get(apiKey) + postHead(PARTNERS, 1, apiKey).slice(0, -1),
      {
        timeoutMs: 3000,
      },
    );
    expect(exchange.responses.map((r) => r.status)).toEqual([401, 404, 408]);
    expect(exchange.responses[0]!.headers.connection).toBe('keep-alive');
  });

  it('serves complete requests as before, on a kept-alive connection', async () => {
    const body = JSON.stringify({
      companyName: 'Slow Co',
      contactName: 'Sam',
      contactEmailAddress: 'sam@slow.example',
      type: 'RESELLER',
    });
    const head =
      `POST ${PARTNERS} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-API-KEY: ${apiKey}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const socket = await new Promise<Socket>((resolve) => {
      const s = connect(port, '127.0.0.1', () => resolve(s));
    });
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk;
        if (text.includes('PARTNER_INVITE_SUCCESSFUL')) resolve(text);
      });
    });
    // the body arrives in pieces, well within the bound
    socket.write(head + body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.write(body.slice(10));
    const text = await answer;
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(text.toLowerCase()).toContain('connection: keep-alive');
    socket.destroy();
  });
});

describe('connection cap (HTTP_MAX_CONNECTIONS)', () => {
  it('refuses connections over the cap at accept, with one warning per burst', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const t = await createTestApp({ env: { HTTP_MAX_CONNECTIONS: '3' } });
    const port = await listening(t);
    /** a connection, and whether the server closed it within a second */
    const open = (): Promise<{ socket: Socket; closedByServer: Promise<boolean> }> =>
      new Promise((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        const closedByServer = new Promise<boolean>((settle) => {
          socket.once('close', () => settle(true));
          setTimeout(() => settle(false), 1000);
        });
        socket.once('connect', () => {
          socket.on('error', () => undefined);
          resolve({ socket, closedByServer });
        });
        socket.once('error', reject);
      });
    try {
      const held = [await open(), await open(), await open()];
      const extra = await Promise.all([open(), open(), open(), open()]);
      expect(await Promise.all(extra.map((c) => c.closedByServer))).toEqual([true, true, true, true]);
      const warnings = warn.mock.calls.filter((call) => String(call[1]).includes('connection limit reached'));
      expect(warnings).toHaveLength(1);
      expect(held[0]!.socket.destroyed).toBe(false);

      // once one of them goes, a new connection is served
      held[0]!.socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 50));
      const fresh = await rawExchange(
        port,
        'GET /api/v1/vendors/x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(fresh.responses.map((r) => r.status)).toEqual([401]);
      for (const c of held) c.socket.destroy();
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });
});
