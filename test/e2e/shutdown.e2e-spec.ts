import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { drainAndClose } from '../../src/bootstrap';
import { ProbeController } from '../support/probe.controller';
import { parseResponses, postHead, rawExchange } from '../support/raw-http';
import { ISO_DATETIME, createTestApp, createVendor } from '../support/test-app';

function get(url: string, apiKey: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { 'X-API-KEY': apiKey } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** D41, in-process: the same drain the server runs on SIGTERM. */
describe('graceful shutdown', () => {
  it('answers a request already being handled, refuses new connections, then closes', async () => {
    const t = await createTestApp({ controllers: [ProbeController] });
    const { apiKey } = await createVendor(t.app);
    await t.app.listen(0, '127.0.0.1');
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');

    const slow = get(`${base}/api/v1/vendors/probe/slow?ms=400`, apiKey);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the handler is now sleeping
    const closing = drainAndClose(t.app, 5000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(get(`${base}/api/v1/vendors/probe/slow?ms=0`, apiKey)).rejects.toThrow(
      /ECONNREFUSED|ECONNRESET|socket hang up/,
    );

    const answered = await slow;
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).data).toEqual({ sleptMs: 400 });
    expect(await closing).toBe('closed');
  });

  it('gives up after the deadline when a request does not finish', async () => {
    const t = await createTestApp({ controllers: [ProbeController] });
    const { apiKey } = await createVendor(t.app);
    await t.app.listen(0, '127.0.0.1');
    const base = (await t.app.getUrl()).replace('[::1]', '127.0.0.1');
    const slow = get(`${base}/api/v1/vendors/probe/slow?ms=1500`, apiKey);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await drainAndClose(t.app, 300)).toBe('timeout');
    expect((await slow).status).toBe(200);
  });

  it('cuts a connection still sending its body just before the deadline (408), then closes in time', async () => {
    const t = await createTestApp(); // default bounds: the body alone would be allowed 30 s
    const { apiKey } = await createVendor(t.app);
    await t.app.listen(0, '127.0.0.1');
    const port = Number(new URL(await t.app.getUrl()).port);
    const stuck = rawExchange(port, postHead('/api/v1/vendors/partners', 1_000_000, apiKey), {
      trickleMs: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    expect(await drainAndClose(t.app, 1500)).toBe('closed');
    expect(Date.now() - started).toBeLessThan(1500);
    const exchange = await stuck;
    expect(exchange.responses.map((r) => [r.status, r.headers.connection])).toEqual([[408, 'close']]);
    expect(exchange.responses[0]!.body).toEqual({
      message: 'INVALID_REQUEST',
      status: 408,
      success: false,
      errors: [],
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
  });

  it('answers a request sent on an idle keep-alive connection as the drain starts, with Connection: close', async () => {
    const t = await createTestApp();
    const { apiKey } = await createVendor(t.app);
    await t.app.listen(0, '127.0.0.1');
    const port = Number(new URL(await t.app.getUrl()).port);
    const get = `GET /api/v1/vendors/nothing HTTP/1.1\r\nHost: x\r\nX-API-KEY: ${apiKey}\r\n\r\n`;
    const keepAlive = async () => {
      const socket = await new Promise<Socket>((resolve) => {
        const s = connect(port, '127.0.0.1', () => resolve(s));
      });
      const received: Buffer[] = [];
      const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      socket.write(get);
      while (parseResponses(Buffer.concat(received)).length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      return { socket, closed, responses: () => parseResponses(Buffer.concat(received)) };
    };
    const busy = await keepAlive();
    const idle = await keepAlive();
    expect(busy.responses()[0]!.headers.connection).toBe('keep-alive');

    const started = Date.now();
    const closing = drainAndClose(t.app, 5000);
    busy.socket.write(get); // the client's next request, racing the signal
    expect(await closing).toBe('closed');
    expect(busy.responses().map((r) => [r.status, r.headers.connection])).toEqual([
      [404, 'keep-alive'],
      [404, 'close'],
    ]);
    // the idle one was closed by the server after the grace, not after the 72 s keep-alive timeout
    expect((await idle.closed) - started).toBeLessThan(1500);
    expect(idle.responses()).toHaveLength(1);
  });
});
