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
