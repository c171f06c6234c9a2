import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { MailDispatcher } from '../../src/mail/application/mail-dispatcher';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';

/** Fast dispatcher timings for tests (the defaults are minutes and seconds). */
export function fastDispatcher(
  overrides: ConstructorParameters<typeof MailDispatcherSettings>[0] = {},
): MailDispatcherSettings {
  return new MailDispatcherSettings({
    pollIntervalMs: 25,
    backoffBaseMs: 50,
    backoffMaxMs: 400,
    leaseMs: 2_000,
    ...overrides,
  });
}

/** Outbox rows addressed to any of these recipients (case-insensitive), oldest first. */
export async function outboxRows(
  app: NestFastifyApplication,
  recipients: string[],
): Promise<{ id: number; recipient: string; status: string; attempts: number }[]> {
  if (recipients.length === 0) return [];
  const rows: { id: number; recipient: string; status: string; attempts: number }[] = await app
    .get(DataSource)
    .query(
      `SELECT id, recipient, status, attempts FROM mail_outbox WHERE LOWER(recipient) IN (${recipients.map(() => '?').join(', ')}) ORDER BY id`,
      recipients.map((r) => r.toLowerCase()),
    );
  return rows.map((r) => ({ ...r, id: Number(r.id), attempts: Number(r.attempts) }));
}

/**
 * Runs dispatch rounds until no message to these recipients is pending any more, so everything queued
 * for them has reached the mail server (or failed for good). Messages in backoff keep it waiting.
 */
export async function settleOutbox(
  app: NestFastifyApplication,
  recipients: string[],
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const dispatcher = app.get(MailDispatcher);
  for (;;) {
    await dispatcher.dispatchDue();
    const pending = (await outboxRows(app, recipients)).filter((r) => r.status === 'PENDING');
    if (pending.length === 0) return;
    if (Date.now() > deadline) throw new Error(`outbox still has ${pending.length} pending message(s)`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
