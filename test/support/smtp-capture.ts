import { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';

/** One email as the SMTP server received it, decoded enough to assert on. */
export interface CapturedMail {
  envelopeFrom: string;
  recipients: string[];
  headers: Record<string, string>;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 for e2e tests (no TLS, no auth). The app under test points
 * SMTP_URL at `capture.url`. It can be stopped and started again on the same port, to simulate a
 * mail server that is down for a while.
 */
export class SmtpCapture {
  readonly messages: CapturedMail[] = [];
  private server: SMTPServer | undefined;

  private constructor(public port: number) {}

  static async start(port = 0): Promise<SmtpCapture> {
    const capture = new SmtpCapture(port);
    await capture.listen();
    return capture;
  }

  /** A port that nothing listens on (for a mail server that is down from the start). */
  static async freePort(): Promise<number> {
    const probe = await SmtpCapture.start();
    const port = probe.port;
    await probe.stop();
    return port;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  async listen(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (
        stream: SMTPServerDataStream,
        session: SMTPServerSession,
        callback: (error?: Error | null) => void,
      ) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8');
          this.messages.push(parseMail(raw, session));
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.server.address() as { port: number }).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Messages whose envelope recipients include this address (case-insensitive, D13). */
  to(address: string): CapturedMail[] {
    const wanted = address.toLowerCase();
    return this.messages.filter((m) => m.recipients.some((r) => r.toLowerCase() === wanted));
  }

  /** Waits until `condition` holds (polling); fails after `timeoutMs`. */
  async waitFor(condition: () => boolean, description: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

function parseMail(raw: string, session: SMTPServerSession): CapturedMail {
  const { headers, body } = splitHeaders(raw);
  const envelopeFrom = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
  const recipients = session.envelope.rcptTo.map((r) => r.address);
  const parts = leafParts(headers, body);
  const find = (type: string) =>
    parts.find((p) => (p.headers['content-type'] ?? 'text/plain').startsWith(type));
  const decode = (part?: Part) => (part ? decodeBody(part) : '');
  return {
    envelopeFrom,
    recipients,
    headers,
    subject: decodeWords(headers['subject'] ?? ''),
    text: decode(find('text/plain')),
    html: decode(find('text/html')),
    raw,
  };
}

interface Part {
  headers: Record<string, string>;
  body: string;
}

function splitHeaders(raw: string): Part {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function leafParts(headers: Record<string, string>, body: string): Part[] {
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [{ headers, body }];
  return body
    .split(`--${boundary}`)
    .slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .flatMap((chunk) => {
      const part = splitHeaders(chunk.replace(/^\r?\n/, ''));
      return leafParts(part.headers, part.body);
    });
}

function decodeBody(part: Part): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body = part.body.replace(/\r?\n$/, '');
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`), as nodemailer writes non-ASCII or long headers. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g,
      (_match, _charset: string, encoding: string, text: string) => {
        if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
        const bytes = text
          .replace(/_/g, ' ')
          .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        return Buffer.from(bytes, 'latin1').toString('utf8');
      },
    );
}
