import { AppConfig } from '../../config/app-config';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { AttemptOutcome, ClaimedDelivery, DeliveryQueue, QueueStats } from './delivery-queue';
import { WebhookSender } from './webhook-sender';
import { DestinationGuard } from './destination-guard';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookDispatcherSettings } from './webhook-dispatcher.settings';

class DirectUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  read<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

class OneDeliveryQueue extends DeliveryQueue {
  retries: { id: number; outcome: AttemptOutcome; error: string }[] = [];
  private given = false;
  claimDue(): Promise<ClaimedDelivery[]> {
    if (this.given) return Promise.resolve([]);
    this.given = true;
    return Promise.resolve([
      {
        id: 1,
        leaseToken: 'lease-1',
        attempts: 0,
        url: 'https://hooks.example.com/x',
        secret: 'whsec_AAAA',
        eventId: 'evt_1',
        payload: '{}',
      },
    ]);
  }
  confirm(): Promise<boolean> {
    return Promise.resolve(true);
  }
  markDelivered(): Promise<boolean> {
    throw new Error('not expected');
  }
  markRetry(
    delivery: ClaimedDelivery,
    outcome: AttemptOutcome,
    _next: Date,
    error: string,
  ): Promise<boolean> {
    this.retries.push({ id: delivery.id, outcome, error });
    return Promise.resolve(true);
  }
  markFailed(): Promise<boolean> {
    throw new Error('not expected');
  }
  released: number[] = [];
  release(ids: number[]): Promise<void> {
    this.released.push(...ids);
    return Promise.resolve();
  }
  stats(): Promise<QueueStats> {
    return Promise.resolve({ pending: 0, oldestPendingAt: null });
  }
}

const at = new Date('2030-01-01T00:00:00.000Z');

function dispatcherWith(
  queue: DeliveryQueue,
  sender: WebhookSender,
  guard: DestinationGuard = new (class extends DestinationGuard {
    problem(): Promise<string | null> {
      return Promise.resolve(null);
    }
  })(),
): WebhookDispatcher {
  const clock = new (class extends Clock {
    now(): Date {
      return at;
    }
  })();
  return new WebhookDispatcher(
    new DirectUnitOfWork(),
    queue,
    sender,
    guard,
    clock,
    new WebhookDispatcherSettings({ autoStart: false }),
    AppConfig.fromEnv({}),
  );
}

describe('WebhookDispatcher', () => {
  it('checks the destination again before each attempt (X16): a host now resolving to a private address is a failed attempt, nothing sent', async () => {
    const queue = new OneDeliveryQueue();
    const sent: string[] = [];
    const sender = new (class extends WebhookSender {
      post(url: string): Promise<number> {
        sent.push(url);
        return Promise.resolve(200);
      }
    })();
    const guard = new (class extends DestinationGuard {
      problem(): Promise<string | null> {
        return Promise.resolve('must not point to a loopback, private or link-local address');
      }
    })();
    const dispatcher = dispatcherWith(queue, sender, guard);
    expect(await dispatcher.dispatchDue()).toMatchObject({ claimed: 1, retried: 1 });
    expect(sent).toEqual([]);
    expect(queue.retries).toEqual([
      {
        id: 1,
        outcome: { attempts: 1, responseStatus: null, at },
        error: 'destination refused: must not point to a loopback, private or link-local address',
      },
    ]);
  });

  it('gives each attempt 10 s by default (X18), and an attempt with no answer in time is a failed attempt, retried', async () => {
    expect(new WebhookDispatcherSettings().timeoutMs).toBe(10_000);
    const queue = new OneDeliveryQueue();
    const timeouts: number[] = [];
    const sender = new (class extends WebhookSender {
      post(
        _url: string,
        _headers: Record<string, string>,
        _body: string,
        timeoutMs: number,
      ): Promise<number> {
        timeouts.push(timeoutMs);
        return Promise.reject(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
      }
    })();
    expect(await dispatcherWith(queue, sender).dispatchDue()).toMatchObject({ claimed: 1, retried: 1 });
    expect(timeouts).toEqual([10_000]);
    expect(queue.retries).toEqual([
      {
        id: 1,
        outcome: { attempts: 1, responseStatus: null, at },
        error: expect.stringContaining('The operation was aborted due to timeout'),
      },
    ]);
  });

  describe('stopping during an attempt (D41)', () => {
    function senderThatStops(finish: (signal: AbortSignal) => Promise<number>) {
      const holder: { dispatcher?: WebhookDispatcher; stopped?: Promise<void> } = {};
      const sender = new (class extends WebhookSender {
        post(_url: string, _h: Record<string, string>, _b: string, _t: number, cancel?: AbortSignal) {
          holder.stopped = holder.dispatcher!.stop();
          return finish(cancel!);
        }
      })();
      return { holder, sender };
    }

    it('records an answer that arrives as the stop begins: a 500 is a failed attempt, not an interrupted one', async () => {
      const queue = new OneDeliveryQueue();
      const { holder, sender } = senderThatStops(() => Promise.resolve(500));
      holder.dispatcher = dispatcherWith(queue, sender);
      const round = await holder.dispatcher.dispatchDue();
      await holder.stopped;
      expect(round).toMatchObject({ claimed: 1, retried: 1, interrupted: 0 });
      expect(queue.retries).toEqual([
        { id: 1, outcome: { attempts: 1, responseStatus: 500, at }, error: 'HTTP 500' },
      ]);
      expect(queue.released).toEqual([]);
    });

    it('gives the row back untouched when the stop aborts the send', async () => {
      const queue = new OneDeliveryQueue();
      const { holder, sender } = senderThatStops((signal) => {
        expect(signal.aborted).toBe(true);
        return Promise.reject(new Error('This operation was aborted'));
      });
      holder.dispatcher = dispatcherWith(queue, sender);
      const round = await holder.dispatcher.dispatchDue();
      await holder.stopped;
      expect(round).toMatchObject({ claimed: 1, retried: 0, interrupted: 1 });
      expect(queue.retries).toEqual([]);
      expect(queue.released).toEqual([1]);
    });
  });
});
