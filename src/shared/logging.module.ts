import { isatty } from 'node:tty';
import { DynamicModule, Global, Injectable, LoggerService, Module } from '@nestjs/common';
import pino from 'pino';
import pretty from 'pino-pretty';
import { AppConfig, LogFormat } from '../config/app-config';

type Destination = 'stdout' | 'stderr';

/**
 * A quoted literal in a database message (MySQL: `Duplicate entry 'ada@x.example-7' for key
 * 'ux_...'`, `Incorrect string value: '\xF0...'`), unless it names a key, column, table or index.
 */
const QUOTED_VALUE = /(?<!(?:key|column|table|index|constraint|database) )'(?:[^'\\]|\\.|'')*'/gi;
/** Anything shaped like an email address (an SMTP server's `550 <bob@example.com>: unknown user`). */
const EMAIL_LIKE = /[^\s<>()[\]"',;:/\\@]+@[^\s<>()[\]"',;:/\\@]+\.[^\s<>()[\]"',;:/\\@.]+/g;

/**
 * A message of a driver, a mail server or another library with the personal data it may quote taken
 * out: quoted values and email addresses (docs/operations.md: what the logs never hold).
 */
export function redactMessage(text: string): string {
  return text.replace(QUOTED_VALUE, "'?'").replace(EMAIL_LIKE, '<address>');
}

/**
 * pino's `err` serializer: what an error is and where it happened, never the data it carries. Only
 * the class, code and message, with the message redacted, and the stack frames; not the properties
 * TypeORM and the drivers add (`parameters`, `query`, `sql`, `sqlMessage`, `driverError`), which hold
 * the values of the statement: names, email addresses, phone numbers, an API key's hash.
 */
export function safeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: redactMessage(String(error)) };
  const { code, errno, sqlState } = error as Error & { code?: unknown; errno?: unknown; sqlState?: unknown };
  const message = redactMessage(error.message);
  const frames = (error.stack ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  return {
    type: error.constructor.name,
    message,
    ...(code !== undefined && { code }),
    ...(errno !== undefined && { errno }),
    ...(sqlState !== undefined && { sqlState }),
    stack: [`${error.name}: ${message}`, ...frames].join('\n'),
  };
}

/**
 * What Nest's NestApplication logs at the end of `init()`, which `listen()` runs *before* it binds
 * the port: on a port already taken it would read as a success just before the failure. The server
 * says it is up itself, once it listens (src/main.ts, "public API listening on ...").
 */
const NEST_READY = 'Nest application successfully started';

/**
 * Nest's own start-up dump, one line per controller and route: at debug, not info, so that a start
 * shows what the service says (docs/configuration.md, LOG_FORMAT); `LOG_LEVEL=debug` shows them.
 */
const NEST_CHATTER = new Set(['RoutesResolver', 'RouterExplorer', 'InstanceLoader']);

/**
 * Structured JSON logs (pino) for Nest's Logger and for the request log (request-log.ts): stdout
 * for the server, stderr for the CLI (whose stdout carries its JSON answer). Secrets are redacted
 * by key wherever they appear in a logged object.
 */
@Injectable()
export class AppLogger implements LoggerService {
  constructor(readonly pino: pino.Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  /**
   * Nest calls `(message, context)` or, for errors, `(message, stack, context)`; the project also
   * logs `(fields, message)`. The last string argument is Nest's context. Message texts and stacks
   * are redacted (redactMessage): they may quote a driver's or a mail server's message.
   */
  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    if (context === 'NestApplication' && message === NEST_READY) return;
    if (level === 'info' && typeof context === 'string' && NEST_CHATTER.has(context)) {
      if (!this.pino.isLevelEnabled('debug')) return;
      level = 'debug';
    }
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, redactMessage(message.message));
    } else if (typeof message === 'object' && message !== null) {
      const text = rest.find((r): r is string => typeof r === 'string');
      this.pino[level](
        { ...fields, ...(message as object) },
        text === undefined ? text : redactMessage(text),
      );
    } else {
      const stack = rest.find((r): r is string => typeof r === 'string');
      this.pino[level](
        stack ? { ...fields, stack: redactMessage(stack) } : fields,
        redactMessage(String(message)),
      );
    }
  }
}

/** The message of the request log's lines (request-log.ts): shown as one line in pretty logs. */
const REQUEST_COMPLETED = 'request completed';
/** The request log's fields, which the pretty line holds in its text instead. */
const REQUEST_FIELDS = ['reqId', 'method', 'path', 'route', 'status', 'ms', 'vendorId'];

/**
 * LOG_FORMAT=pretty: pino-pretty, one line per message, `HH:MM:ss.l LEVEL: [Context] message
 * {other fields}`, and per request `GET /api/v1/vendors/partners 200 3.1 ms (vendor 7)` (the path
 * without its query string, as the JSON line has it). An error's stack follows on its own lines.
 * Colours only on a terminal.
 */
function prettyStream(destination: number | pino.DestinationStream, colorize: boolean, sync: boolean) {
  return pretty({
    destination,
    sync,
    colorize,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    singleLine: true,
    messageFormat: (log, messageKey) => {
      if (log[messageKey] === REQUEST_COMPLETED) {
        const { method, path, status, ms, vendorId } = log;
        // pino-pretty prints the fields left in `log` after the message: on a request line, none.
        // (`log` is pino-pretty's own copy of the line, parsed for this call.)
        for (const field of REQUEST_FIELDS) delete log[field];
        const vendor = vendorId === null || vendorId === undefined ? '' : ` (vendor ${vendorId})`;
        return `${method} ${path} ${status} ${ms} ms${vendor}`;
      }
      return `${log.context ? `[${log.context}] ` : ''}${log[messageKey] ?? ''}`;
    },
  });
}

/** LOG_FORMAT, or when unset: pretty on a terminal (a person reads it), JSON otherwise. */
export function logFormatFor(configured: LogFormat | undefined, isTerminal: boolean): LogFormat {
  return configured ?? (isTerminal ? 'pretty' : 'json');
}

/**
 * The pino logger of the process. `destination` is stdout (server), stderr (CLI), or a stream
 * (tests that read the log); `format` is LOG_FORMAT (unset: pretty when the destination is a
 * terminal). A stream gets JSON unless `format` says pretty.
 */
export function createPino(
  level: string,
  destination: Destination | pino.DestinationStream,
  format?: LogFormat,
): pino.Logger {
  let stream: pino.DestinationStream;
  if (typeof destination === 'string') {
    const fd = destination === 'stdout' ? 1 : 2;
    const sync = destination === 'stderr';
    stream =
      logFormatFor(format, isatty(fd)) === 'pretty'
        ? prettyStream(fd, isatty(fd), sync)
        : pino.destination({ fd, sync });
  } else {
    stream = format === 'pretty' ? prettyStream(destination, false, true) : destination;
  }
  return pino(
    {
      level,
      serializers: { err: safeError },
      redact: [
        'apiKey',
        '*.apiKey',
        'headers["x-api-key"]',
        '*.headers["x-api-key"]',
        'headers.authorization',
      ],
    },
    stream,
  );
}

@Global()
@Module({})
class LoggingModule {}

export function loggingModule(destination: Destination): DynamicModule {
  return {
    module: LoggingModule,
    providers: [
      {
        provide: AppLogger,
        inject: [AppConfig],
        useFactory: (config: AppConfig) =>
          new AppLogger(createPino(config.logLevel, destination, config.logFormat)),
      },
    ],
    exports: [AppLogger],
  };
}
