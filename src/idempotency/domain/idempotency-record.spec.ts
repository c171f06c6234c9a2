import { IdempotencyRecord, RETENTION_MS, decide, isStorable, newClaim } from './idempotency-record';

const T0 = new Date('2026-06-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 60_000;

function running(): IdempotencyRecord {
  return newClaim(7, 'key-1', 'fp-a', 'token-1', T0, LEASE);
}

function done(): IdempotencyRecord {
  return { ...running(), state: 'DONE', leaseUntil: null, response: { status: 200, body: '{}' } };
}

describe('newClaim', () => {
  it('holds the key for the lease and counts for 24 hours (X3)', () => {
    const claim = running();
    expect(claim.state).toBe('RUNNING');
    expect(claim.leaseUntil).toEqual(at(LEASE));
    expect(claim.expiresAt).toEqual(at(RETENTION_MS));
    expect(RETENTION_MS).toBe(86_400_000);
  });
});

describe('decide (X3, X4)', () => {
  it('replays a stored response to the same request for 24 hours, to the millisecond', () => {
    expect(decide(done(), 'fp-a', at(1))).toBe('replay');
    expect(decide(done(), 'fp-a', at(RETENTION_MS - 1))).toBe('replay');
  });

  it('treats a record 24 hours old as absent: the key is taken over and the request runs', () => {
    expect(decide(done(), 'fp-a', at(RETENTION_MS))).toBe('take_over');
    expect(decide(done(), 'fp-other', at(RETENTION_MS))).toBe('take_over');
  });

  it('refuses another request with a stored key (422)', () => {
    expect(decide(done(), 'fp-other', at(1))).toBe('reused');
  });

  it('answers in_use while the holder’s lease lasts, whatever the body (409)', () => {
    expect(decide(running(), 'fp-a', at(0))).toBe('in_use');
    expect(decide(running(), 'fp-other', at(LEASE - 1))).toBe('in_use');
  });

  it('lets a request take over a claim whose lease passed: its holder is presumed dead and stored nothing', () => {
    expect(decide(running(), 'fp-a', at(LEASE))).toBe('take_over');
    expect(decide(running(), 'fp-other', at(LEASE + 1))).toBe('take_over');
  });
});

describe('isStorable (X2)', () => {
  it.each([
    [200, undefined],
    [201, undefined],
    [400, 'DUPLICATE_ENTRY'],
    [404, 'RESOURCE_NOT_FOUND'],
    [409, 'INVALID_STATE_TRANSITION'],
  ])('stores %s %s: the request reached the business rules', (status, code) => {
    expect(isStorable(status, code)).toBe(true);
  });

  it.each([
    [400, 'VALIDATION_FAILED'],
    [400, 'INVALID_REQUEST'],
    [400, undefined],
    [401, undefined],
    [408, 'INVALID_REQUEST'],
    [413, 'INVALID_REQUEST'],
    [500, 'INTERNAL_SERVER_ERROR'],
    [503, 'SERVICE_UNAVAILABLE'],
  ])(
    'does not store %s %s: the client may correct the request and retry with the same key',
    (status, code) => {
      expect(isStorable(status, code)).toBe(false);
    },
  );
});
