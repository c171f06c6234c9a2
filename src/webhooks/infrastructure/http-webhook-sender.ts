import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { WebhookSender } from '../application/webhook-sender';
import { REFUSED_DESTINATION, isRefusedAddress } from '../domain/destination';

const KEEP_ALIVE = { keepAlive: true, timeout: 4_000 };

/**
 * POSTs with Node's http/https clients (X18). Redirects are not followed (a 3xx is a failed
 * attempt): following one would reach a destination the SSRF guard (X16) never checked.
 *
 * X16 at connection time: the host name is resolved by this sender's own lookup, which refuses the
 * connection when any address is loopback, private or link-local, and the socket connects to the
 * addresses that lookup checked. So a name that answers a public address to the guard's check and a
 * private one a moment later (DNS rebinding) cannot slip between the check and the connection. An
 * IP literal needs no lookup: the dispatcher's check before the attempt judged it, and it cannot
 * change. With WEBHOOK_ALLOW_PRIVATE_NETWORKS the lookup checks nothing.
 */
@Injectable()
export class HttpWebhookSender extends WebhookSender implements OnApplicationShutdown {
  private readonly checkAddresses: boolean;
  /**
   * Connections kept alive between attempts: this sender's own, each opened through its lookup. An
   * idle one is closed after 4 s (as fetch's pool does), before most receivers close it themselves.
   */
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(config: AppConfig) {
    super();
    this.checkAddresses = !config.webhooks.allowPrivateNetworks;
    this.agents = { http: new HttpAgent(KEEP_ALIVE), https: new HttpsAgent(KEEP_ALIVE) };
  }

  /** The kept-alive connections are closed with the application. */
  onApplicationShutdown(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  post(
    url: string,
    headers: Record<string, string>,
    body: string,
    timeoutMs: number,
    cancel?: AbortSignal,
  ): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let request: ClientRequest | undefined;
      /** the receiver's status, once its answer's head arrived: the verdict, whatever the body does */
      let status: number | undefined;
      let settled = false;
      // One timer and one listener per attempt, both removed when it ends: the stop signal lives as
      // long as the worker (D41), and nothing of an attempt may stay attached to it.
      const finish = (error: unknown) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        cancel?.removeEventListener('abort', onStop);
        // An answer that arrived is recorded even if its body is cut short, times out or is stopped
        // (docs/webhooks.md); the connection is then not reused.
        if (status !== undefined) resolve(status);
        else reject(withMessage(error));
        if (error !== null) request?.destroy();
      };
      const onStop = () =>
        finish(cancel?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      const timer = setTimeout(
        () => finish(new DOMException('The operation was aborted due to timeout', 'TimeoutError')),
        timeoutMs,
      );
      if (cancel?.aborted) return onStop();
      cancel?.addEventListener('abort', onStop, { once: true });
      try {
        const target = new URL(url);
        const secure = target.protocol === 'https:';
        const send = secure ? httpsRequest : httpRequest;
        const options: RequestOptions = {
          method: 'POST',
          agent: secure ? this.agents.https : this.agents.http,
          headers: { ...headers, 'content-length': Buffer.byteLength(body) },
          lookup: this.checkedLookup,
        };
        request = send(target, options, (response) => {
          status = response.statusCode;
          // the body is not needed; reading it frees the connection (bounded by the same timer)
          response.resume();
          response.on('end', () => finish(null));
          response.on('error', (error) => finish(error));
        });
        request.on('error', (error) => finish(error));
        request.end(body);
      } catch (error) {
        finish(error);
      }
    });
  }

  /** Where `host` resolves to: all its addresses, in the resolver's order. Overridden by tests. */
  protected resolve(host: string, callback: (error: Error | null, addresses: LookupAddress[]) => void): void {
    dnsLookup(host, { all: true, verbatim: true }, callback);
  }

  /** `lookup` of net.connect: the resolver's answer, refused whole when any address is refused. */
  private readonly checkedLookup: LookupFunction = (host, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    this.resolve(host, (error, found) => {
      if (error) return callback(error, []);
      if (this.checkAddresses && found.some((entry) => isRefusedAddress(entry.address)))
        return callback(
          Object.assign(new Error(`destination refused: ${REFUSED_DESTINATION}`), {
            code: 'EREFUSED_DESTINATION',
          }),
          [],
        );
      const addresses = family ? found.filter((entry) => entry.family === family) : found;
      if (addresses.length === 0) return callback(notFound(host), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/**
 * The error as the dispatcher records it (its message is the delivery's last error). A connection
 * tried on every address of a name (happy eyeballs) fails with an AggregateError whose own message
 * is empty: its errors' messages are used instead.
 */
function withMessage(error: unknown): unknown {
  // by shape, not instanceof: an error made in another realm (a test runner's) is no `Error` here
  const failure = error as { message?: unknown; errors?: unknown; code?: unknown; name?: unknown } | null;
  if (typeof failure !== 'object' || failure === null || failure.message !== '') return error;
  const messages = Array.isArray(failure.errors)
    ? failure.errors.map((entry: { message?: unknown }) => String(entry?.message ?? entry)).filter(Boolean)
    : [];
  failure.message =
    messages.length > 0
      ? messages.join('; ')
      : typeof failure.code === 'string'
        ? failure.code
        : String(failure.name);
  return error;
}

function notFound(host: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', hostname: host });
}
