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
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      signal: cancel ? AbortSignal.any([timeout, cancel]) : timeout,
    });
    // the body is not needed; reading it frees the connection (bounded by the same timeout)
    await response.arrayBuffer().catch(() => undefined);
    return response.status;
  }
}
