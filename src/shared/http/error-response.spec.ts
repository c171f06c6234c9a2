import { BadRequestException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import {
  DuplicateEntryError,
  InvalidStateTransitionError,
  NotFoundError,
  ValidationError,
} from '../domain/domain-error';
import { AuthenticationError, EdgeError, toErrorResponse } from './error-response';

const now = new Date('2026-11-21T09:14:03.120Z');

describe('toErrorResponse', () => {
  it.each([
    [
      ValidationError.of('firstName', 'is required'),
      400,
      'VALIDATION_FAILED',
      [{ field: 'firstName', error: 'is required' }],
    ],
    [
      new DuplicateEntryError('emailAddress', 'taken'),
      400,
      'DUPLICATE_ENTRY',
      [{ field: 'emailAddress', error: 'taken' }],
    ],
    [new NotFoundError('lead'), 404, 'RESOURCE_NOT_FOUND', []],
    [new InvalidStateTransitionError('REJECTED', 'approve'), 409, 'INVALID_STATE_TRANSITION', []],
    [EdgeError.invalidRequest('bad json'), 400, 'INVALID_REQUEST', []],
    [new NotFoundException(), 404, 'RESOURCE_NOT_FOUND', []],
    [new PayloadTooLargeException(), 413, 'INVALID_REQUEST', []],
    [new BadRequestException(), 400, 'INVALID_REQUEST', []],
    [
      Object.assign(new Error('too large'), { code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 }),
      413,
      'INVALID_REQUEST',
      [],
    ],
  ])('maps %p to %i %s in the standard shape', (error, status, code, errors) => {
    const response = toErrorResponse(error, now);
    expect(response.status).toBe(status);
    expect(response.body).toEqual({
      message: code,
      status,
      success: false,
      errors,
      timestamp: '2026-11-21T09:14:03.120Z',
    });
    expect(response.unexpected).toBe(false);
  });

  it('answers anything unexpected with 500 and no detail, and flags it for logging', () => {
    const response = toErrorResponse(new Error('SELECT * FROM secrets failed'), now);
    expect(response).toEqual({
      status: 500,
      body: {
        message: 'INTERNAL_SERVER_ERROR',
        status: 500,
        success: false,
        errors: [],
        timestamp: now.toISOString(),
      },
      unexpected: true,
    });
    expect(toErrorResponse('a string', now).status).toBe(500);
    expect(toErrorResponse(Object.assign(new Error('x'), { statusCode: 400 }), now).status).toBe(500);
  });

  it('uses the authentication shape for 401 (D7): no status, no errors, data null', () => {
    const response = toErrorResponse(new AuthenticationError('INVALID_API_KEY'), now);
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      success: false,
      message: 'INVALID_API_KEY',
      data: null,
      timestamp: now.toISOString(),
    });
  });
});
