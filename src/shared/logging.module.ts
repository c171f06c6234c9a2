import { DynamicModule, Global, Injectable, LoggerService, Module } from '@nestjs/common';
import pino from 'pino';
import { AppConfig } from '../config/app-config';

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
 * out: quoted values and email addresses (README "Operations": what the logs never hold).
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

/**
 * The pino logger of the process. `destination` is stdout (server), stderr (CLI), or a stream
 * (tests that read the log).
 */
export function createPino(level: string, destination: Destination | pino.DestinationStream): pino.Logger {
  const stream =
    typeof destination === 'string'
      ? pino.destination({ fd: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' })
      : destination;
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
        useFactory: (config: AppConfig) => new AppLogger(createPino(config.logLevel, destination)),
      },
    ],
    exports: [AppLogger],
  };
}
