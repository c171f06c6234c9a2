import { Injectable } from '@nestjs/common';
import { WebhookSender } from '../application/webhook-sender';

/**
 * POSTs with Node's fetch. Redirects are not followed (a 3xx is a failed attempt): following one
 * would reach a destination the SSRF guard (X16) never checked.
 */
@Injectable()
export class FetchWebhookSender extends WebhookSender {
  async post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
    cancel?: AbortSignal,
  ): Promise<number> {
    // One controller per attempt, fed by the timeout and by the worker's stop signal (D41). The stop
    // signal lives as long as the worker: a listener is added for this attempt and removed after it,
    // rather than AbortSignal.any, whose composite signals Node keeps alive as long as their sources.
    const attempt = new AbortController();
    const abort = () => attempt.abort(cancel?.reason);
    const timer = setTimeout(
      () => attempt.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
      timeoutMs,
    );
    if (cancel?.aborted) abort();
    cancel?.addEventListener('abort', abort, { once: true });
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: attempt.signal,
      });
      // the body is not needed; reading it frees the connection (bounded by the same timeout)
      await response.arrayBuffer().catch(() => undefined);
      return response.status;
    } finally {
      clearTimeout(timer);
      cancel?.removeEventListener('abort', abort);
    }
  }
}
