import { DynamicModule, Global, Injectable, LoggerService, Module } from '@nestjs/common';
import pino from 'pino';
import { AppConfig } from '../config/app-config';

type Destination = 'stdout' | 'stderr';

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
   * logs `(fields, message)`. The last string argument is Nest's context.
   */
  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? rest.pop() : undefined;
    const fields: Record<string, unknown> = context === undefined ? {} : { context };
    if (message instanceof Error) {
      this.pino[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const text = rest.find((r): r is string => typeof r === 'string');
      this.pino[level]({ ...fields, ...(message as object) }, text);
    } else {
      const stack = rest.find((r): r is string => typeof r === 'string');
      this.pino[level](stack ? { ...fields, stack } : fields, String(message));
    }
  }
}

function createPino(level: string, destination: Destination): pino.Logger {
  return pino(
    {
      level,
      redact: [
        'apiKey',
        '*.apiKey',
        'headers["x-api-key"]',
        '*.headers["x-api-key"]',
        'headers.authorization',
      ],
    },
    pino.destination({ fd: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' }),
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
