import { TestingModule } from '@nestjs/testing';
import { IdempotencyStore } from '../../src/idempotency/application/idempotency-store';
import { IdempotencySettings } from '../../src/idempotency/application/idempotency.settings';
import { IdempotentRequests } from '../../src/idempotency/application/idempotent-requests';
import { RETENTION_MS, newClaim } from '../../src/idempotency/domain/idempotency-record';
import { IdempotencyModule } from '../../src/idempotency/idempotency.module';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { Clock } from '../../src/shared/domain/clock';
import { CreateVendorUseCase } from '../../src/vendors/application/create-vendor.use-case';
import { VendorsModule } from '../../src/vendors/vendors.module';
import { SettableClock } from '../support/partner-mother';
import { createTestContext, unique } from '../support/test-app';

/**
 * Later than the times of idempotency.e2e-spec.ts, whose sweep deletes every record that expired by
 * its own pinned time: on a shared MySQL database the two files may run at once. (The sweep is
 * tested there, with the HTTP requests that make the records.)
 */
const T0 = '2026-03-01T12:00:00.000Z';
const LEASE_MS = 60_000;
const at = (ms: number) => new Date(Date.parse(T0) + ms);

/**
 * The idempotency_keys adapter on the database under test (X5): the unique index decides between
 * concurrent claims, a takeover and a store name the claim they expect, a record is stored once.
 */
describe('TypeOrmIdempotencyStore and IdempotentRequests', () => {
  let context: TestingModule;
  let store: IdempotencyStore;
  let uow: UnitOfWork;
  let requests: IdempotentRequests;
  let vendorId: number;
  const clock = new SettableClock();

  beforeAll(async () => {
    context = await createTestContext([VendorsModule, IdempotencyModule], {
      override: (b) =>
        b
          .overrideProvider(Clock)
          .useValue(clock)
          .overrideProvider(IdempotencySettings)
          .useValue(new IdempotencySettings({ autoStart: false, leaseMs: LEASE_MS })),
    });
    store = context.get(IdempotencyStore);
    uow = context.get(UnitOfWork);
    requests = context.get(IdempotentRequests);
    vendorId = (await context.get(CreateVendorUseCase).execute(`Vendor ${unique()}`)).vendorId;
  });
  afterEach(() => clock.release());
  afterAll(() => context.close());

  const claim = (key: string, token: string, now = at(0)) =>
    newClaim(vendorId, key, 'a'.repeat(64), token, now, LEASE_MS);

  it('lets one INSERT of a vendor and key through; the second is refused, not an error', async () => {
    const key = unique('k');
    expect(await uow.run(() => store.insert(claim(key, 'token-1')))).toBe(true);
    expect(await uow.run(() => store.insert(claim(key, 'token-2')))).toBe(false);
    expect(await uow.run(() => store.find(vendorId, key))).toMatchObject({
      claimToken: 'token-1',
      state: 'RUNNING',
      leaseUntil: at(LEASE_MS),
      createdAt: at(0),
      expiresAt: at(RETENTION_MS),
      response: null,
    });
  });

  it('compares keys byte for byte: case and trailing characters make another key', async () => {
    const key = unique('Case');
    expect(await uow.run(() => store.insert(claim(key, 't1')))).toBe(true);
    expect(await uow.run(() => store.insert(claim(key.toLowerCase(), 't2')))).toBe(true);
    expect(await uow.run(() => store.insert(claim(`${key}!`, 't3')))).toBe(true);
  });

  it('stores a response only for the claim that holds the key, and releases only its own claim', async () => {
    const key = unique('k');
    const mine = claim(key, 'mine');
    await uow.run(() => store.insert(mine));
    const stranger = { ...mine, claimToken: 'stranger' };
    expect(await uow.run(() => store.complete(stranger, { status: 200, body: '{}' }))).toBe(false);
    expect(await uow.run(() => store.release(stranger))).toBe(false);
    expect(await uow.run(() => store.complete(mine, { status: 201, body: '{"a":1}' }))).toBe(true);
    expect(await uow.run(() => store.complete(mine, { status: 500, body: 'x' }))).toBe(false);
    expect(await uow.run(() => store.release(mine))).toBe(false); // DONE: no longer a running claim
    expect(await uow.run(() => store.find(vendorId, key))).toMatchObject({
      state: 'DONE',
      leaseUntil: null,
      response: { status: 201, body: '{"a":1}' },
    });
  });

  it('keeps a body of 200,000 characters intact', async () => {
    const key = unique('big');
    const body = JSON.stringify({ data: 'é'.repeat(100_000), more: 'x'.repeat(99_980) });
    const mine = claim(key, 'big');
    await uow.run(() => store.insert(mine));
    await uow.run(() => store.complete(mine, { status: 200, body }));
    expect((await uow.run(() => store.find(vendorId, key)))!.response!.body).toBe(body);
  });

  it('takes over a claim whose lease passed only once, and the old holder can no longer store', async () => {
    const key = unique('k');
    const dead = claim(key, 'dead');
    await uow.run(() => store.insert(dead));
    const seen = (await uow.run(() => store.find(vendorId, key)))!;
    expect(
      await uow.run(() => store.takeOver(seen, claim(key, 'early', at(LEASE_MS - 1)), at(LEASE_MS - 1))),
    ).toBe(false);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((token) =>
        uow.run(() => store.takeOver(seen, claim(key, token, at(LEASE_MS)), at(LEASE_MS))),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await uow.run(() => store.complete(dead, { status: 200, body: '{}' }))).toBe(false);
    const now = (await uow.run(() => store.find(vendorId, key)))!;
    expect(['a', 'b', 'c']).toContain(now.claimToken);
    expect(now.leaseUntil).toEqual(at(2 * LEASE_MS));
  });

  it('lets exactly one of concurrent requests run a key whose holder died, the others see it in use', async () => {
    const key = unique('k');
    clock.pin(T0);
    expect((await requests.begin(vendorId, key, 'b'.repeat(64))).kind).toBe('run');
    clock.pin(at(LEASE_MS).toISOString());
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => requests.begin(vendorId, key, 'c'.repeat(64))),
    );
    expect(outcomes.filter((o) => o.kind === 'run')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_use')).toHaveLength(7);
  });

  it('lets exactly one of concurrent first requests run a new key', async () => {
    const key = unique('k');
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, () => requests.begin(vendorId, key, 'd'.repeat(64))),
    );
    expect(outcomes.filter((o) => o.kind === 'run')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_use')).toHaveLength(7);
  });
});
