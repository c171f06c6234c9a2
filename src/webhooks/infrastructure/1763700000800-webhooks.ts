import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf, execute } from '../../shared/infrastructure/database/migrations/sql-dialect';

/**
 * Outgoing webhooks (X16-X19, docs/webhooks.md).
 *
 * - `webhook_endpoints`: a vendor's registered receivers. `secret` is kept as issued (`whsec_...`):
 *   the service signs every delivery with it (X18), so it must be readable, unlike an API key's hash.
 *   `events` is the subscribed names joined by commas ('*' for all). DELETE sets `disabled_at`
 *   instead of removing the row, so the deliveries made to it keep their foreign key.
 * - `webhook_events`: one row per event (X17), written in the transaction of the change; `event_id`
 *   is the public `evt_...` id sent as `webhook-id`, `payload` the JSON body sent.
 * - `webhook_deliveries`: one row per (event, subscribed endpoint), the queue of the delivery worker
 *   (leases as in mail_outbox). Listed by endpoint, newest first: `ix_webhook_deliveries_endpoint`.
 */
export class Webhooks1763700000800 implements MigrationInterface {
  name = 'Webhooks1763700000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    const d = dialectOf(queryRunner);
    const payload = d.engine === 'mysql' ? 'MEDIUMTEXT' : 'TEXT';
    await execute(queryRunner, [
      `CREATE TABLE webhook_endpoints (
        ${d.autoId()},
        vendor_id ${d.bigint} NOT NULL,
        url VARCHAR(2048) NOT NULL,
        events VARCHAR(512) NOT NULL,
        description VARCHAR(255) NULL,
        secret VARCHAR(64) NOT NULL,
        created_at ${d.datetime} NOT NULL,
        disabled_at ${d.datetime} NULL,
        ${d.foreignKey('fk_webhook_endpoints_vendor', ['vendor_id'], 'vendors', ['id'])}
      )${d.tableOptions}`,
      `CREATE INDEX ix_webhook_endpoints_vendor ON webhook_endpoints (vendor_id)`,
      `CREATE TABLE webhook_events (
        ${d.autoId()},
        event_id ${d.char(36)} NOT NULL,
        vendor_id ${d.bigint} NOT NULL,
        type VARCHAR(32) NOT NULL,
        payload ${payload} NOT NULL,
        created_at ${d.datetime} NOT NULL,
        ${d.foreignKey('fk_webhook_events_vendor', ['vendor_id'], 'vendors', ['id'])}
      )${d.tableOptions}`,
      `CREATE UNIQUE INDEX ux_webhook_events_event_id ON webhook_events (event_id)`,
      `CREATE INDEX ix_webhook_events_vendor ON webhook_events (vendor_id)`,
      `CREATE TABLE webhook_deliveries (
        ${d.autoId()},
        endpoint_id ${d.bigint} NOT NULL,
        event_id ${d.bigint} NOT NULL,
        status VARCHAR(16) NOT NULL,
        attempts ${d.int} NOT NULL,
        next_attempt_at ${d.datetime} NULL,
        locked_until ${d.datetime} NULL,
        lease_token VARCHAR(36) NULL,
        last_response_status ${d.int} NULL,
        last_attempt_at ${d.datetime} NULL,
        last_error ${d.text} NULL,
        created_at ${d.datetime} NOT NULL,
        ${d.foreignKey('fk_webhook_deliveries_endpoint', ['endpoint_id'], 'webhook_endpoints', ['id'])},
        ${d.foreignKey('fk_webhook_deliveries_event', ['event_id'], 'webhook_events', ['id'])}
      )${d.tableOptions}`,
      `CREATE INDEX ix_webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
      `CREATE INDEX ix_webhook_deliveries_lease ON webhook_deliveries (lease_token)`,
      `CREATE INDEX ix_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id)`,
      `CREATE INDEX ix_webhook_deliveries_event ON webhook_deliveries (event_id)`,
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await execute(queryRunner, [
      'DROP TABLE webhook_deliveries',
      'DROP TABLE webhook_events',
      'DROP TABLE webhook_endpoints',
    ]);
  }
}
