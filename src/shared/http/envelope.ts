import {
  CallHandler,
  ExecutionContext,
  HttpCode,
  Injectable,
  NestInterceptor,
  SetMetadata,
  applyDecorators,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable, map } from 'rxjs';
import { Clock } from '../domain/clock';

/** The success codes api.md lists (D3); every other operation answers with message null. */
export type SuccessCode =
  | 'PARTNER_INVITE_SUCCESSFUL'
  | 'PARTNER_USERS_INVITE_SUCCESSFUL'
  | 'PARTNER_REINVITE_SUCCESSFUL'
  | 'LEAD_CREATE_SUCCESSFUL'
  | 'LEAD_APPROVE_SUCCESSFUL';

export interface SuccessEnvelope<T> {
  success: true;
  message: SuccessCode | null;
  data: T;
  timestamp: string;
}

const SUCCESS_CODE = 'prm:success-code';

/**
 * Marks an operation: it answers 200 (also for POST) with the success envelope and this message.
 * The handler returns only the `data` part.
 */
export function Success(code: SuccessCode | null = null): MethodDecorator {
  return applyDecorators(HttpCode(200), SetMetadata(SUCCESS_CODE, code));
}

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly clock: Clock,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<SuccessEnvelope<unknown>> {
    const code =
      this.reflector.get<SuccessCode | null | undefined>(SUCCESS_CODE, context.getHandler()) ?? null;
    return next.handle().pipe(
      map((data: unknown) => ({
        success: true as const,
        message: code,
        data: data === undefined ? null : data,
        timestamp: this.clock.now().toISOString(),
      })),
    );
  }
}
