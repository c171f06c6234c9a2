import { request } from 'node:http';
import { drainAndClose } from '../../src/bootstrap';
import { ProbeController } from '../support/probe.controller';
import { createTestApp, createVendor } from '../support/test-app';

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
});
