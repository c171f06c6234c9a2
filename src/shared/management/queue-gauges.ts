import { Gauge, Registry } from 'prom-client';
import { Clock } from '../domain/clock';

/** What a queue read from the database reports for its gauges: rows waiting, and since when. */
export interface QueueStats {
  pending: number;
  failed?: number;
  oldestPendingAt: Date | null;
}

export interface QueueGaugeNames {
  pending: { name: string; help: string };
  failed?: { name: string; help: string };
  oldestPendingAgeSeconds: { name: string; help: string };
}

/**
 * Gauges of a queue kept in the database (the mail outbox, the webhook deliveries), read when
 * scraped, so every instance reports the shared queue: one read per scrape for all of them, and a
 * database that does not answer leaves them as they were, since /metrics must not fail with it.
 */
export function registerQueueGauges(
  registry: Registry,
  clock: Clock,
  names: QueueGaugeNames,
  read: () => Promise<QueueStats>,
): void {
  let reading: Promise<QueueStats | undefined> | undefined;
  const stats = () =>
    (reading ??= read()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (reading = undefined))));
  const gauge = ({ name, help }: { name: string; help: string }, value: (current: QueueStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const current = await stats();
        if (current) this.set(value(current));
      },
    });
  gauge(names.pending, (current) => current.pending);
  if (names.failed) gauge(names.failed, (current) => current.failed ?? 0);
  gauge(names.oldestPendingAgeSeconds, ({ oldestPendingAt }) =>
    oldestPendingAt ? Math.max(0, (clock.now().getTime() - oldestPendingAt.getTime()) / 1000) : 0,
  );
}
