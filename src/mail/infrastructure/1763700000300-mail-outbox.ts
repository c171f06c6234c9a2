import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * The mail outbox (D35): rows are written in the transaction of the change that causes the email and
 * delivered by the MailDispatcher after commit. status PENDING -> SENT, or FAILED after the last attempt.
 * Bodies are erased once a message is no longer pending: they may carry a one-time invite link.
 */
export class MailOutbox1763700000300 implements MigrationInterface {
  name = 'MailOutbox1763700000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    // An HTML body with escaped 255-character names may pass the 64 KiB of a MySQL TEXT.
    const body = d.engine === 'mysql' ? 'MEDIUMTEXT' : 'TEXT';
    await execute(queryRunner, [
      `CREATE TABLE mail_outbox (
        id ${d.id},
        recipient ${d.varchar} NOT NULL,
        subject ${d.text} NOT NULL,
        text_body ${body} NULL,
        html_body ${body} NULL,
        status VARCHAR(16) NOT NULL,
        attempts ${d.int} NOT NULL,
        next_attempt_at ${d.datetime} NOT NULL,
        locked_until ${d.datetime} NULL,
        lease_token VARCHAR(36) NULL,
        last_error ${d.text} NULL,
        created_at ${d.datetime} NOT NULL,
        sent_at ${d.datetime} NULL,
        failed_at ${d.datetime} NULL
      )${d.tableOptions}`,
      `CREATE INDEX ix_mail_outbox_due ON mail_outbox (status, next_attempt_at)`,
      `CREATE INDEX ix_mail_outbox_lease ON mail_outbox (lease_token)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, ['DROP TABLE mail_outbox']);
  }
}
