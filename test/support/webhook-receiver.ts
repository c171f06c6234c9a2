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
  private held: { arrived: () => void; released: Promise<void> } | undefined;
  private gate: { answers: (() => void)[]; waiters: { n: number; resolve: () => void }[] } | undefined;

  /**
   * Holds the answer to the next request: `arrived` resolves once it has come in, and the answer
   * (the next status) is written only when `release` is called. Lets a test act while an attempt is
   * in flight.
   */
  holdNext(): { arrived: Promise<void>; release: () => void } {
    let arrived!: () => void;
    let release!: () => void;
    const arrivedPromise = new Promise<void>((resolve) => (arrived = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    this.held = { arrived, released };
    return { arrived: arrivedPromise, release };
  }

  /**
   * Holds the answers to every request from now on until `release` is called, which answers them
   * all (and the later ones at once). `arrived(n)` resolves once n requests are being held: how
   * many attempts a sender has in flight at the same time.
   */
  holdAll(): { arrived: (n: number) => Promise<void>; held: () => number; release: () => void } {
    const gate = { answers: [] as (() => void)[], waiters: [] as { n: number; resolve: () => void }[] };
    this.gate = gate;
    return {
      arrived: (n) =>
        gate.answers.length >= n
          ? Promise.resolve()
          : new Promise((resolve) => gate.waiters.push({ n, resolve })),
      held: () => gate.answers.length,
      release: () => {
        if (this.gate === gate) this.gate = undefined;
        for (const answer of gate.answers.splice(0)) answer();
      },
    };
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.received.push({ headers: req.headers, body, json: JSON.parse(body) as ReceivedWebhook['json'] });
        const status = this.statuses.shift() ?? 200;
        const held = this.held;
        this.held = undefined;
        const answer = () => {
          res.statusCode = status;
          res.end('ok');
        };
        const gate = this.gate;
        if (held) {
          held.arrived();
          void held.released.then(answer);
        } else if (gate) {
          gate.answers.push(answer);
          for (const waiter of gate.waiters.filter((w) => w.n <= gate.answers.length)) waiter.resolve();
        } else answer();
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
