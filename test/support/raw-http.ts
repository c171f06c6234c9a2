import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** header names in lower case */
  headers: Record<string, string>;
  body: unknown;
}

export interface RawExchange {
  /** every response read from the socket, in order */
  responses: RawResponse[];
  /** ms from the first byte written until the socket closed */
  closedAfterMs: number;
  /** the server ended or reset the connection (the client never closes it in these tests) */
  closedBy: 'server-fin' | 'server-reset' | 'never';
  /** bytes of the request the client managed to write */
  written: number;
}

export interface RawExchangeOptions {
  /** after `head`, write one byte (`trickle`, default a space) every `trickleMs` until the socket closes */
  trickleMs?: number;
  trickle?: string;
  /** give up (and destroy the socket) after this long */
  timeoutMs?: number;
}

/** Splits what the server sent into responses (Content-Length bodies only, which is all we send). */
export function parseResponses(raw: Buffer): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = raw;
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) return responses;
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const text = rest.subarray(end + 4, end + 4 + length).toString('utf8');
    responses.push({
      status: Number(statusLine!.split(' ')[1]),
      headers,
      body: text ? JSON.parse(text) : undefined,
    });
    rest = rest.subarray(end + 4 + length);
  }
}

/**
 * Writes `head` on a fresh TCP connection (not an HTTP client: nothing is added, nothing retried),
 * optionally trickles one more byte at a time, and reports what came back and when the server
 * closed the connection.
 */
export function rawExchange(
  port: number,
  head: string | Buffer,
  options: RawExchangeOptions = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let started = 0;
    let written = 0;
    let closedBy: RawExchange['closedBy'] = 'never';
    let trickle: NodeJS.Timeout | undefined;
    const write = (data: string | Buffer) => {
      if (socket.destroyed || !socket.writable) return;
      socket.write(data, (error) => {
        if (!error) written += Buffer.byteLength(data);
      });
    };
    socket.on('connect', () => {
      started = Date.now();
      write(head);
      if (options.trickleMs) trickle = setInterval(() => write(options.trickle ?? ' '), options.trickleMs);
    });
    const giveUp = setTimeout(() => socket.destroy(), options.timeoutMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => {
      if (closedBy === 'never') closedBy = 'server-fin';
      socket.end();
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (closedBy === 'never' && (error.code === 'ECONNRESET' || error.code === 'EPIPE'))
        closedBy = 'server-reset';
    });
    socket.on('close', () => {
      clearInterval(trickle);
      clearTimeout(giveUp);
      resolve({
        responses: parseResponses(Buffer.concat(chunks)),
        closedAfterMs: Date.now() - started,
        closedBy,
        written,
      });
    });
  });
}

/** A POST whose headers promise `contentLength` bytes, followed by the first byte of the body. */
export function postHead(path: string, contentLength: number, apiKey?: string): string {
  return (
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${contentLength}\r\n` +
    (apiKey === undefined ? '' : `X-API-KEY: ${apiKey}\r\n`) +
    '\r\n{'
  );
}
