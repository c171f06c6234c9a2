import { getEventListeners } from 'node:events';
import { FetchWebhookSender } from '../../src/webhooks/infrastructure/fetch-webhook-sender';
import { WebhookReceiver } from '../support/webhook-receiver';

/**
 * The sender against a real receiver on localhost: the answer's status, the per-attempt timeout, the
 * stop signal of D41, and that an attempt leaves nothing attached to the long-lived stop signal.
 */
describe('FetchWebhookSender', () => {
  const receiver = new WebhookReceiver();
  const sender = new FetchWebhookSender();
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
});
