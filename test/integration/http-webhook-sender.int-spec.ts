import type { LookupAddress } from 'node:dns';
import { getEventListeners } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '../../src/config/app-config';
import { HttpWebhookSender } from '../../src/webhooks/infrastructure/http-webhook-sender';
import { WebhookReceiver } from '../support/webhook-receiver';

const config = (allowPrivateNetworks: boolean) => ({ webhooks: { allowPrivateNetworks } }) as AppConfig;

/** A sender whose resolver answers `answers` for every name, as a DNS server could. */
class SenderWithResolver extends HttpWebhookSender {
  resolved: string[] = [];
  constructor(
    allowPrivateNetworks: boolean,
    private readonly answers: string[],
  ) {
    super(config(allowPrivateNetworks));
  }
  protected override resolve(host: string, callback: (error: Error | null, found: LookupAddress[]) => void) {
    this.resolved.push(host);
    callback(
      null,
      this.answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }
}

/**
 * The sender against a real receiver on localhost: the answer's status, the per-attempt timeout, the
 * stop signal of D41, that an attempt leaves nothing attached to the long-lived stop signal, and
 * X16 at connection time: the socket goes only to the addresses the sender's own lookup checked.
 */
describe('HttpWebhookSender', () => {
  const receiver = new WebhookReceiver();
  const sender = new HttpWebhookSender(config(true));
  let url: string;
  const headers = { 'content-type': 'application/json' };

  beforeAll(async () => {
    url = await receiver.start();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => receiver.clear());

  it("returns the receiver's status and leaves no listener on the stop signal", async () => {
    const stop = new AbortController();
    receiver.statuses = [503, 200];
    expect(await sender.post(url, headers, '{"n":1}', 5_000, stop.signal)).toBe(503);
    expect(await sender.post(url, headers, '{"n":2}', 5_000, stop.signal)).toBe(200);
    expect(receiver.received.map((r) => r.body)).toEqual(['{"n":1}', '{"n":2}']);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('gives up after the timeout with a TimeoutError, and detaches from the stop signal', async () => {
    const stop = new AbortController();
    const held = receiver.holdNext();
    const attempt = sender.post(url, headers, '{}', 200, stop.signal);
    await held.arrived;
    await expect(attempt).rejects.toMatchObject({ name: 'TimeoutError' });
    held.release();
    expect(stop.signal.aborted).toBe(false);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('aborts an attempt in flight when the stop signal fires (D41)', async () => {
    const stop = new AbortController();
    const held = receiver.holdNext();
    const attempt = sender.post(url, headers, '{}', 60_000, stop.signal);
    await held.arrived;
    stop.abort();
    await expect(attempt).rejects.toMatchObject({ name: 'AbortError' });
    held.release();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('does not send at all when the stop signal has already fired', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(sender.post(url, headers, '{}', 5_000, stop.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(receiver.received).toHaveLength(0);
  });

  describe('X16 at connection time (docs/webhooks.md, DNS rebinding)', () => {
    const byName = () => {
      const { port } = new URL(url);
      return `http://receiver.invalid:${port}/hook`; // a name only the test's resolver answers
    };

    it('connects to the address its own lookup answered, not to another resolution', async () => {
      const resolving = new SenderWithResolver(true, ['127.0.0.1']);
      receiver.statuses = [200];
      expect(await resolving.post(byName(), headers, '{"via":"name"}', 5_000)).toBe(200);
      expect(resolving.resolved).toEqual(['receiver.invalid']);
      expect(receiver.received.map((r) => r.body)).toEqual(['{"via":"name"}']);
    });

    it.each([
      ['a loopback answer', ['127.0.0.1']],
      ['a public answer beside a private one', ['93.184.216.34', '10.0.0.7']],
      ['the metadata address', ['169.254.169.254']],
      ['an IPv4-mapped loopback', ['::ffff:127.0.0.1']],
    ])(
      'refuses the connection on %s when private networks are refused, sending nothing',
      async (_case, answers) => {
        const guarded = new SenderWithResolver(false, answers);
        await expect(guarded.post(byName(), headers, '{}', 5_000)).rejects.toThrow(
          'destination refused: must not point to a loopback, private or link-local address',
        );
        expect(guarded.resolved).toEqual(['receiver.invalid']);
        expect(receiver.received).toHaveLength(0);
      },
    );
  });

  describe('an answer whose body does not end (docs/webhooks.md: an answer that arrived is recorded)', () => {
    let server: Server;
    let slowUrl: string;
    beforeAll(async () => {
      // the head of a 200, then a body that never ends
      server = createServer((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.write('partial');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      slowUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });
    afterAll(async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    });

    it('returns the status when the timeout comes while the body is still arriving', async () => {
      const stop = new AbortController();
      expect(await sender.post(slowUrl, headers, '{}', 300, stop.signal)).toBe(200);
      expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    });

    it('returns the status when the stop signal fires while the body is still arriving (D41)', async () => {
      const stop = new AbortController();
      const attempt = sender.post(slowUrl, headers, '{}', 60_000, stop.signal);
      setTimeout(() => stop.abort(), 200);
      expect(await attempt).toBe(200);
    });
  });

  it('names the causes when every address of a name refuses the connection (no empty message)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const twoAddresses = new SenderWithResolver(true, ['127.0.0.1', '127.0.0.2']);
    const failure = await twoAddresses.post(`http://receiver.invalid:${port}/`, headers, '{}', 5_000).then(
      () => null,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/ECONNREFUSED/);
  });
});
