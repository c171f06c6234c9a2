import { AddressInfo } from 'node:net';
import { IncomingHttpHeaders, Server, createServer } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  /** the raw body, as signed */
  body: string;
  json: { id: string; type: string; createdAt: string; data: Record<string, unknown> };
}

/**
 * A real HTTP receiver on localhost (node:http) for webhook tests: records every POST and answers
 * with the next status of `statuses` (200 once they are used up).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  statuses: number[] = [];
  private server: Server | undefined;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: req.headers, body, json: JSON.parse(body) as ReceivedWebhook['json'] });
        res.statusCode = this.statuses.shift() ?? 200;
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  types(): string[] {
    return this.received.map((r) => r.json.type);
  }

  clear(): void {
    this.received.length = 0;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
