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
  release(): Promise<void> {
    return Promise.resolve();
  }
  stats(): Promise<QueueStats> {
    return Promise.resolve({ pending: 0, oldestPendingAt: null });
  }
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
    const clock = new (class extends Clock {
      now(): Date {
        return new Date('2030-01-01T00:00:00.000Z');
      }
    })();
    const config: AppConfig = AppConfig.fromEnv({});
    const dispatcher = new WebhookDispatcher(
      new DirectUnitOfWork(),
      queue,
      sender,
      guard,
      clock,
      new WebhookDispatcherSettings({ autoStart: false }),
      config,
    );
    expect(await dispatcher.dispatchDue()).toMatchObject({ claimed: 1, retried: 1 });
    expect(sent).toEqual([]);
    expect(queue.retries).toEqual([
      {
        id: 1,
        outcome: { attempts: 1, responseStatus: null, at: new Date('2030-01-01T00:00:00.000Z') },
        error: 'destination refused: must not point to a loopback, private or link-local address',
      },
    ]);
  });
});
