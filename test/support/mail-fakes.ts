import { MailMessage, OutgoingMail } from '../../src/mail/application/mail-message';
import { MailSender } from '../../src/mail/application/mail-sender';
import { ClaimedMail, OutboxStats, OutboxStore } from '../../src/mail/application/outbox-store';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { Clock } from '../../src/shared/domain/clock';

/** For unit tests of code that needs a UnitOfWork but no database. */
export class PassThroughUnitOfWork extends UnitOfWork {
  run<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
  read<T>(work: () => Promise<T>): Promise<T> {
    return work();
  }
}

/** A clock that only moves when told to. */
export class ManualClock extends Clock {
  constructor(private current = new Date('2030-01-01T00:00:00.000Z')) {
    super();
  }
  now(): Date {
    return new Date(this.current.getTime());
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

interface Row extends MailMessage {
  id: number;
  status: 'PENDING' | 'SENT' | 'FAILED';
  attempts: number;
  nextAttemptAt: Date;
  lockedUntil: Date | null;
  leaseToken: string | null;
  lastError: string | null;
  createdAt: Date;
}

/** The outbox rows' lifecycle in memory, with the semantics of TypeOrmOutboxStore. */
export class InMemoryOutboxStore extends OutboxStore {
  readonly rows: Row[] = [];

  add(message: MailMessage, at: Date): Row {
    const row: Row = {
      ...message,
      id: this.rows.length + 1,
      status: 'PENDING',
      attempts: 0,
      nextAttemptAt: at,
      lockedUntil: null,
      leaseToken: null,
      lastError: null,
      createdAt: at,
    };
    this.rows.push(row);
    return row;
  }

  async claimDue(now: Date, limit: number, leaseUntil: Date, leaseToken: string): Promise<ClaimedMail[]> {
    const due = this.rows
      .filter(
        (r) =>
          r.status === 'PENDING' &&
          r.nextAttemptAt <= now &&
          (r.lockedUntil === null || r.lockedUntil <= now),
      )
      .slice(0, limit);
    for (const row of due) Object.assign(row, { lockedUntil: leaseUntil, leaseToken });
    return due.map((r) => ({
      id: r.id,
      to: r.to,
      subject: r.subject,
      text: r.text,
      html: r.html,
      attempts: r.attempts,
    }));
  }

  async markSent(id: number): Promise<void> {
    Object.assign(this.row(id), { status: 'SENT', lockedUntil: null, leaseToken: null });
  }

  async markRetry(id: number, attempts: number, nextAttemptAt: Date, error: string): Promise<void> {
    Object.assign(this.row(id), {
      attempts,
      nextAttemptAt,
      lockedUntil: null,
      leaseToken: null,
      lastError: error,
    });
  }

  async markFailed(id: number, attempts: number, _at: Date, error: string): Promise<void> {
    Object.assign(this.row(id), {
      status: 'FAILED',
      attempts,
      lockedUntil: null,
      leaseToken: null,
      lastError: error,
    });
  }

  async release(ids: number[], leaseToken: string): Promise<void> {
    for (const row of this.rows.filter((r) => ids.includes(r.id) && r.leaseToken === leaseToken)) {
      Object.assign(row, { lockedUntil: null, leaseToken: null });
    }
  }

  async stats(): Promise<OutboxStats> {
    const pending = this.rows.filter((r) => r.status === 'PENDING');
    return {
      pending: pending.length,
      failed: this.rows.filter((r) => r.status === 'FAILED').length,
      oldestPendingAt: pending.reduce<Date | null>(
        (oldest, r) => (oldest === null || r.createdAt < oldest ? r.createdAt : oldest),
        null,
      ),
    };
  }

  private row(id: number): Row {
    const row = this.rows.find((r) => r.id === id);
    if (!row) throw new Error(`no outbox row ${id}`);
    return row;
  }
}

/**
 * Records what it is asked to send; can be told to fail, or to hold each send until released
 * (a message "in hand" while the test stops the dispatcher).
 */
export class RecordingMailSender extends MailSender {
  readonly sent: OutgoingMail[] = [];
  failWith: Error | undefined;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;
  private entered: (() => void) | undefined;

  constructor(private readonly next?: MailSender) {
    super();
  }

  /** Every following send waits until `releaseHeld()`; resolves once the first one is waiting. */
  holdNext(): Promise<void> {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
    return new Promise((resolve) => (this.entered = resolve));
  }

  releaseHeld(): void {
    this.gate = undefined;
    this.openGate?.();
  }

  async send(mail: OutgoingMail): Promise<void> {
    if (this.gate) {
      this.entered?.();
      await this.gate;
    }
    if (this.failWith) throw this.failWith;
    if (this.next) await this.next.send(mail);
    this.sent.push(mail);
  }
}
