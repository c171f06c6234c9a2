import { Logger } from '@nestjs/common';
import { StoreUnavailableError } from '../../../src/shared/application/unit-of-work';
import { IdempotentRequests } from '../../../src/idempotency/application/idempotent-requests';
import { IdempotencySweeper } from '../../../src/idempotency/application/idempotency-sweeper';
import { IdempotencySettings } from '../../../src/idempotency/application/idempotency.settings';
import { RETENTION_MS } from '../../../src/idempotency/domain/idempotency-record';
import { inMemoryAdapters } from '../../support/in-memory';

const LEASE_MS = 60_000;

function setup() {
  const a = inMemoryAdapters();
  const settings = new IdempotencySettings({ leaseMs: LEASE_MS, autoStart: false, sweepBatchSize: 2 });
  return {
    ...a,
    requests: new IdempotentRequests(a.uow, a.idempotencyStore, a.clock, settings),
    sweeper: new IdempotencySweeper(a.uow, a.idempotencyStore, a.clock, settings),
  };
}

const ok = { status: 200, body: '{"data":1}' };

describe('IdempotentRequests (X1-X5)', () => {
  it('runs a new key, then replays its stored response for the same request (X3)', async () => {
    const t = setup();
    const first = await t.requests.begin(1, 'k', 'fp');
    if (first.kind !== 'run') throw new Error('expected run');
    await t.requests.finish(first.claim, ok, undefined);
    expect(await t.requests.begin(1, 'k', 'fp')).toEqual({ kind: 'replay', response: ok });
  });

  it('answers reused for the key with another request, in_use while the first runs (X4)', async () => {
    const t = setup();
    const first = await t.requests.begin(1, 'k', 'fp');
    expect(await t.requests.begin(1, 'k', 'other')).toEqual({ kind: 'in_use' });
    if (first.kind !== 'run') throw new Error('expected run');
    await t.requests.finish(first.claim, ok, undefined);
    expect(await t.requests.begin(1, 'k', 'other')).toEqual({ kind: 'reused' });
  });

  it('keeps keys apart per vendor (X1)', async () => {
    const t = setup();
    await t.requests.begin(1, 'k', 'fp');
    expect((await t.requests.begin(2, 'k', 'fp')).kind).toBe('run');
  });

  it.each([
    [400, 'VALIDATION_FAILED', false],
    [400, 'DUPLICATE_ENTRY', true],
    [404, 'RESOURCE_NOT_FOUND', true],
    [409, 'INVALID_STATE_TRANSITION', true],
    [503, 'SERVICE_UNAVAILABLE', false],
  ])('a %i %s response is stored: %s (X2); otherwise the key is free again', async (status, code, stored) => {
    const t = setup();
    const first = await t.requests.begin(1, 'k', 'fp');
    if (first.kind !== 'run') throw new Error('expected run');
    await t.requests.finish(first.claim, { status, body: '{}' }, code);
    expect((await t.requests.begin(1, 'k', 'fp')).kind).toBe(stored ? 'replay' : 'run');
  });

  it.each([
    [200, undefined, 'could not store the answer under the Idempotency-Key of vendor 1'],
    [400, 'VALIDATION_FAILED', 'could not free the Idempotency-Key of vendor 1'],
  ])(
    'logs a failure to finish a %i without saying the request committed nothing (docs/idempotency.md)',
    async (status, code, start) => {
      const t = setup();
      const first = await t.requests.begin(1, 'k', 'fp');
      if (first.kind !== 'run') throw new Error('expected run');
      const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const failing = () => Promise.reject(new StoreUnavailableError('lock_wait'));
      jest.spyOn(t.idempotencyStore, 'complete').mockImplementation(failing);
      jest.spyOn(t.idempotencyStore, 'release').mockImplementation(failing);
      try {
        await t.requests.finish(first.claim, { status, body: '{}' }, code);
        expect(logged).toHaveBeenCalledTimes(1);
        const message = String(logged.mock.calls[0]![0]);
        expect(message.startsWith(`${start}: the database is unavailable (lock_wait);`)).toBe(true);
        expect(message).toContain('until its lease ends');
        expect(message).not.toContain('nothing was committed');
      } finally {
        logged.mockRestore();
      }
    },
  );

  it('a claim whose lease passed is taken over; the old holder can no longer store its response', async () => {
    const t = setup();
    const first = await t.requests.begin(1, 'k', 'fp');
    if (first.kind !== 'run') throw new Error('expected run');
    t.clock.advance(LEASE_MS);
    const second = await t.requests.begin(1, 'k', 'fp');
    expect(second.kind).toBe('run');
    await t.requests.finish(first.claim, { status: 200, body: 'late' }, undefined);
    const record = await t.idempotencyStore.find(1, 'k');
    expect(record).toMatchObject({ state: 'RUNNING', response: null });
  });

  it('a record older than 24 hours counts as absent, and the sweep deletes it in batches (X3, X5)', async () => {
    const t = setup();
    for (const key of ['a', 'b', 'c']) {
      const claim = await t.requests.begin(1, key, 'fp');
      if (claim.kind === 'run') await t.requests.finish(claim.claim, ok, undefined);
    }
    t.clock.advance(RETENTION_MS);
    expect((await t.requests.begin(1, 'a', 'other')).kind).toBe('run');
    expect(await t.sweeper.sweep()).toBe(2);
    expect(t.idempotencyStore.table.all().map((r) => r.key)).toEqual(['a']);
  });
});
