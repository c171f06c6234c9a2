import { Logger } from '@nestjs/common';
import { AppConfig } from '../../../src/config/app-config';
import {
  InMemoryOutboxStore,
  ManualClock,
  PassThroughUnitOfWork,
  RecordingMailSender,
} from '../../support/mail-fakes';
import { MailDispatcher } from '../../../src/mail/application/mail-dispatcher';
import { MailDispatcherSettings } from '../../../src/mail/application/mail-dispatcher.settings';

const message = (to: string) => ({ to, subject: 'Invite', text: 'text', html: '<p>html</p>' });

function setup(overrides: ConstructorParameters<typeof MailDispatcherSettings>[0] = {}) {
  const store = new InMemoryOutboxStore();
  const sender = new RecordingMailSender();
  const clock = new ManualClock();
  const settings = new MailDispatcherSettings({
    autoStart: false,
    backoffBaseMs: 1_000,
    backoffMaxMs: 8_000,
    maxAttempts: 4,
    batchSize: 10,
    leaseMs: 60_000,
    ...overrides,
  });
  const dispatcher = new MailDispatcher(
    new PassThroughUnitOfWork(),
    store,
    sender,
    clock,
    settings,
    AppConfig.fromEnv({ MAIL_FROM: 'from@vendor.test' }),
  );
  return { store, sender, clock, settings, dispatcher };
}

describe('MailDispatcher (D35, D36, D41)', () => {
  it('sends each due message once, from MAIL_FROM, and marks it sent', async () => {
    const { store, sender, clock, dispatcher } = setup();
    store.add(message('a@x.test'), clock.now());
    store.add(message('b@x.test'), clock.now());
    expect(await dispatcher.dispatchDue()).toMatchObject({ claimed: 2, sent: 2 });
    expect(sender.sent.map((m) => [m.from, m.to])).toEqual([
      ['from@vendor.test', 'a@x.test'],
      ['from@vendor.test', 'b@x.test'],
    ]);
    expect(store.rows.map((r) => r.status)).toEqual(['SENT', 'SENT']);
    expect(await dispatcher.dispatchDue()).toMatchObject({ claimed: 0, sent: 0 });
    expect(sender.sent).toHaveLength(2);
  });

  it('leaves a message that is not due yet, and claims at most batchSize', async () => {
    const { store, clock, dispatcher } = setup({ batchSize: 2 });
    store.add(message('later@x.test'), new Date(clock.now().getTime() + 1));
    for (const to of ['1@x.test', '2@x.test', '3@x.test']) store.add(message(to), clock.now());
    expect((await dispatcher.dispatchDue()).sent).toBe(2);
    expect((await dispatcher.dispatchDue()).sent).toBe(1);
    expect((await dispatcher.dispatchDue()).claimed).toBe(0);
    clock.advance(1);
    expect((await dispatcher.dispatchDue()).sent).toBe(1);
  });

  it('retries a failed send with exponential backoff, then marks it failed and logs an error', async () => {
    const { store, sender, clock, dispatcher } = setup();
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const row = store.add(message('down@x.test'), clock.now());
    sender.failWith = new Error('connect ECONNREFUSED');
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      const before = clock.now().getTime();
      expect(await dispatcher.dispatchDue()).toMatchObject({ retried: 1 });
      expect(row).toMatchObject({ status: 'PENDING', attempts: attempt, lastError: 'connect ECONNREFUSED' });
      delays.push(row.nextAttemptAt.getTime() - before);
      expect((await dispatcher.dispatchDue()).claimed).toBe(0); // not before the backoff has passed
      clock.advance(row.nextAttemptAt.getTime() - before);
    }
    expect(delays).toEqual([1_000, 2_000, 4_000]);
    expect(await dispatcher.dispatchDue()).toMatchObject({ failed: 1 });
    expect(row).toMatchObject({ status: 'FAILED', attempts: 4 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining('giving up on outbox message'));
    clock.advance(1_000_000);
    expect((await dispatcher.dispatchDue()).claimed).toBe(0);
    jest.restoreAllMocks();
  });

  it('delivers after the mail server comes back', async () => {
    const { store, sender, clock, dispatcher } = setup();
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    store.add(message('later@x.test'), clock.now());
    sender.failWith = new Error('down');
    await dispatcher.dispatchDue();
    sender.failWith = undefined;
    clock.advance(1_000);
    expect(await dispatcher.dispatchDue()).toMatchObject({ sent: 1 });
    expect(sender.sent.map((m) => m.to)).toEqual(['later@x.test']);
    jest.restoreAllMocks();
  });

  it('stopped mid-batch, finishes the message in hand and gives back the rest at once (D41)', async () => {
    const { store, sender, clock, dispatcher } = setup();
    for (const to of ['1@x.test', '2@x.test', '3@x.test']) store.add(message(to), clock.now());
    const inHand = sender.holdNext();
    const round = dispatcher.dispatchDue();
    await inHand;
    const stopped = dispatcher.stop();
    sender.releaseHeld();
    expect(await round).toMatchObject({ claimed: 3, sent: 1, released: 2 });
    await stopped;
    expect(store.rows.map((r) => [r.status, r.leaseToken])).toEqual([
      ['SENT', null],
      ['PENDING', null],
      ['PENDING', null],
    ]);
    // a stopped dispatcher claims nothing more; a new one takes the rest
    expect((await dispatcher.dispatchDue()).claimed).toBe(0);
    const next = new MailDispatcher(
      new PassThroughUnitOfWork(),
      store,
      sender,
      clock,
      new MailDispatcherSettings({ autoStart: false }),
      AppConfig.fromEnv({}),
    );
    expect(await next.dispatchDue()).toMatchObject({ sent: 2 });
    expect(sender.sent.map((m) => m.to)).toEqual(['1@x.test', '2@x.test', '3@x.test']);
  });

  it('does not start a message once half of the lease is gone, and leaves the rest to a later claim', async () => {
    const { store, sender, clock, dispatcher } = setup({ leaseMs: 1_000 });
    store.add(message('1@x.test'), clock.now());
    store.add(message('2@x.test'), clock.now());
    const slowSender = sender.send.bind(sender);
    sender.send = async (mail) => {
      clock.advance(600); // a slow mail server eats more than half of the lease
      await slowSender(mail);
    };
    expect(await dispatcher.dispatchDue()).toMatchObject({ sent: 1, released: 1 });
    expect(await dispatcher.dispatchDue()).toMatchObject({ sent: 1 });
  });

  it('polls while started and stops cleanly', async () => {
    const { store, sender, clock, dispatcher } = setup({ pollIntervalMs: 5 });
    store.add(message('poll@x.test'), clock.now());
    dispatcher.start();
    while (sender.sent.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await dispatcher.stop();
    expect(sender.sent).toHaveLength(1);
  });
});

describe('MailDispatcherSettings', () => {
  it('doubles the backoff from the base up to the maximum', () => {
    const settings = new MailDispatcherSettings({ backoffBaseMs: 100, backoffMaxMs: 1_000 });
    expect([1, 2, 3, 4, 5, 50].map((n) => settings.backoffAfter(n))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  it('has sane defaults', () => {
    expect(new MailDispatcherSettings()).toMatchObject({
      autoStart: true,
      batchSize: 10,
      leaseMs: 300_000,
      backoffBaseMs: 5_000,
      maxAttempts: 10,
    });
  });
});
