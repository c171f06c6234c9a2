import { Clock } from '../../src/shared/domain/clock';

/**
 * A clock that moves one second forward every time it is read, so every write gets a distinct,
 * later time: "updatedAt moved" and "updatedAt did not move" (D34) become exact assertions.
 */
export class TickingClock extends Clock {
  private current: number;

  constructor(start = Date.parse('2026-06-01T10:00:00.000Z')) {
    super();
    this.current = start;
  }

  now(): Date {
    this.current += 1000;
    return new Date(this.current);
  }
}

/** A clock that always answers the same instant: many leads share one createdAt millisecond. */
export class FixedClock extends Clock {
  constructor(private readonly instant: Date) {
    super();
  }

  now(): Date {
    return new Date(this.instant.getTime());
  }
}

/** A clock the test sets: leads get exactly the createdAt the test needs (whole-day bounds, D33). */
export class SettableClock extends Clock {
  private instant = Date.parse('2026-06-01T10:00:00.000Z');

  set(iso: string): void {
    this.instant = Date.parse(iso);
  }

  now(): Date {
    return new Date(this.instant);
  }
}
