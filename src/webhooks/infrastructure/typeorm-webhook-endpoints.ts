import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { WebhookEndpoint, WebhookEndpoints } from '../application/webhook-endpoints';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from './webhook-endpoint.orm-entity';

function toEndpoint(row: WebhookEndpointOrmEntity): WebhookEndpoint {
  return {
    id: row.id,
    vendorId: row.vendorId,
    url: row.url,
    events: row.events.split(','),
    description: row.description,
    secret: row.secret,
    createdAt: row.createdAt,
    disabledAt: row.disabledAt,
  };
}

@Injectable()
export class TypeOrmWebhookEndpoints extends WebhookEndpoints {
  private readonly sql: EntitySql<WebhookEndpointOrmEntity>;
  private readonly listSql: string;
  private readonly findSql: string;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, WebhookEndpointOrmEntity, 'w');
    const active = `SELECT ${this.sql.selectList} FROM webhook_endpoints w
      WHERE w.vendor_id = ? AND w.disabled_at IS NULL`;
    this.listSql = `${active} ORDER BY w.id`;
    this.findSql = `${active} AND w.id = ?`;
  }

  private get rows() {
    return this.txHost.tx.getRepository(WebhookEndpointOrmEntity);
  }

  async add(endpoint: Omit<WebhookEndpoint, 'id'>): Promise<WebhookEndpoint> {
    const result = await this.rows.insert({ ...endpoint, events: endpoint.events.join(',') });
    return { ...endpoint, id: Number((result.identifiers[0] as { id: number }).id) };
  }

  /** Reads go through SqlDatabase, so outside a transaction they see only committed rows (rule 3). */
  async listForVendor(vendorId: number): Promise<WebhookEndpoint[]> {
    const rows = await this.db.rows(this.listSql, [vendorId]);
    return rows.map((row) => toEndpoint(this.sql.fromArray(row)));
  }

  async findForVendor(id: number, vendorId: number): Promise<WebhookEndpoint | null> {
    const rows = await this.db.rows(this.findSql, [vendorId, id]);
    return rows.length === 0 ? null : toEndpoint(this.sql.fromArray(rows[0]!));
  }

  async disable(id: number, at: Date): Promise<void> {
    await this.rows.update({ id }, { disabledAt: at });
    await this.txHost.tx.getRepository(WebhookDeliveryOrmEntity).update(
      { endpointId: id, status: 'PENDING' },
      {
        status: 'FAILED',
        nextAttemptAt: null,
        lockedUntil: null,
        leaseToken: null,
        lastError: 'endpoint deleted',
      },
    );
  }
}
