import { DynamicModule, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { AppConfig } from '../config/app-config';
import { requestIdOf } from './http/configure-http';

/**
 * Structured JSON logs (pino): stdout for the server, stderr for the CLI (whose stdout carries its
 * JSON answer). Request logs carry the request id; the API key header is never logged.
 */
export function loggingModule(destination: 'stdout' | 'stderr'): DynamicModule {
  return LoggerModule.forRootAsync({
    inject: [AppConfig],
    useFactory: (config: AppConfig) => ({
      forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
      pinoHttp: [
        {
          level: config.logLevel,
          genReqId: (request) => requestIdOf(request),
          redact: ['req.headers["x-api-key"]', 'req.headers.authorization', 'req.headers.cookie'],
          customLogLevel: (_request, response, error) =>
            error || response.statusCode >= 500 ? 'error' : 'info',
        },
        pino.destination({ fd: destination === 'stdout' ? 1 : 2, sync: destination === 'stderr' }),
      ],
    }),
  });
}
