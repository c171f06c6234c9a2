import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DatabaseDialect } from '../../shared/infrastructure/database/database-dialect';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { IdempotencyStore } from '../application/idempotency-store';
import { IdempotencyClaim, IdempotencyRecord, StoredResponse } from '../domain/idempotency-record';
import { IdempotencyKeyOrmEntity } from './idempotency-key.orm-entity';
import { IdempotencyQueries } from './idempotency.queries';

/** The idempotency_keys table (docs/idempotency.md): one statement a method, SQLite and MySQL alike. */
@Injectable()
export class TypeOrmIdempotencyStore extends IdempotencyStore {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly dialect: DatabaseDialect,
    private readonly queries: IdempotencyQueries,
  ) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(IdempotencyKeyOrmEntity);
  }

  async insert(claim: IdempotencyClaim): Promise<boolean> {
    try {
      await this.rows.insert({
        vendorId: claim.vendorId,
        idempotencyKey: claim.key,
        fingerprint: claim.fingerprint,
        claimToken: claim.claimToken,
        state: 'RUNNING',
        leaseUntil: claim.leaseUntil,
        createdAt: claim.createdAt,
        expiresAt: claim.expiresAt,
        responseStatus: null,
        responseBody: null,
      });
      return true;
    } catch (error) {
      // the unique index: the key is recorded already (the statement alone failed, not the transaction)
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async find(vendorId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.rows.findOneBy({ vendorId, idempotencyKey: key });
    if (!row) return undefined;
    return {
      vendorId,
      key,
      fingerprint: row.fingerprint,
      claimToken: row.claimToken,
      state: row.state === 'DONE' ? 'DONE' : 'RUNNING',
      leaseUntil: row.leaseUntil,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
      response:
        row.responseStatus === null || row.responseBody === null
          ? null
          : { status: Number(row.responseStatus), body: row.responseBody },
    };
  }

  async takeOver(seen: IdempotencyRecord, claim: IdempotencyClaim, now: Date): Promise<boolean> {
    // The condition is checked again by the database: of two requests taking over one record, the
    // second finds the claim token changed and updates nothing.
    const at = this.dialect.dateTime(now);
    const result = await this.rows
      .createQueryBuilder()
      .update()
      .set({
        fingerprint: claim.fingerprint,
        claimToken: claim.claimToken,
        state: 'RUNNING',
        leaseUntil: claim.leaseUntil,
        createdAt: claim.createdAt,
        expiresAt: claim.expiresAt,
        responseStatus: null,
        responseBody: null,
      })
      .where({ vendorId: seen.vendorId, idempotencyKey: seen.key, claimToken: seen.claimToken })
      .andWhere("(expires_at <= :at OR (state = 'RUNNING' AND lease_until <= :at))", { at })
      .execute();
    return result.affected === 1;
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    const result = await this.rows.update(
      { ...this.heldBy(claim), state: 'RUNNING' },
      { state: 'DONE', leaseUntil: null, responseStatus: response.status, responseBody: response.body },
    );
    return result.affected === 1;
  }

  async release(claim: IdempotencyClaim): Promise<boolean> {
    const result = await this.rows.delete({ ...this.heldBy(claim), state: 'RUNNING' });
    return result.affected === 1;
  }

  deleteExpired(now: Date, limit: number): Promise<number> {
    return this.queries.deleteExpired(now, limit);
  }

  /** The record of this claim's key, while the claim holds it. */
  private heldBy(claim: IdempotencyClaim) {
    return { vendorId: claim.vendorId, idempotencyKey: claim.key, claimToken: claim.claimToken };
  }
}
