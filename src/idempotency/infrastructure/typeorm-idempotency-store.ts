import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import {
  SqlDatabase,
  dateFromRow,
  nullableDateFromRow,
} from '../../shared/infrastructure/database/sql-database';
import { IdempotencyStore } from '../application/idempotency-store';
import { IdempotencyClaim, IdempotencyRecord, StoredResponse } from '../domain/idempotency-record';

interface Row {
  fingerprint: string;
  claim_token: string;
  state: string;
  lease_until: unknown;
  created_at: unknown;
  expires_at: unknown;
  response_status: number | string | null;
  response_body: string | null;
}

const THE_KEY = 'vendor_id = ? AND idempotency_key = ?';

/** The idempotency_keys table through hand-written SQL (docs/architecture.md), SQLite and MySQL alike. */
@Injectable()
export class TypeOrmIdempotencyStore extends IdempotencyStore {
  constructor(private readonly db: SqlDatabase) {
    super();
  }

  async insert(claim: IdempotencyClaim): Promise<boolean> {
    try {
      await this.db.run(
        `INSERT INTO idempotency_keys
           (vendor_id, idempotency_key, fingerprint, claim_token, state, lease_until, created_at, expires_at)
         VALUES (?, ?, ?, ?, 'RUNNING', ?, ?, ?)`,
        [
          claim.vendorId,
          claim.key,
          claim.fingerprint,
          claim.claimToken,
          claim.leaseUntil,
          claim.createdAt,
          claim.expiresAt,
        ],
      );
      return true;
    } catch (error) {
      // the unique index: the key is recorded already (the statement alone failed, not the transaction)
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async find(vendorId: number, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db.one<Row>(
      `SELECT fingerprint, claim_token, state, lease_until, created_at, expires_at, response_status, response_body
         FROM idempotency_keys WHERE ${THE_KEY}`,
      [vendorId, key],
    );
    if (!row) return undefined;
    return {
      vendorId,
      key,
      fingerprint: row.fingerprint,
      claimToken: row.claim_token,
      state: row.state === 'DONE' ? 'DONE' : 'RUNNING',
      leaseUntil: nullableDateFromRow(row.lease_until),
      createdAt: dateFromRow(row.created_at),
      expiresAt: dateFromRow(row.expires_at),
      response:
        row.response_status === null || row.response_body === null
          ? null
          : { status: Number(row.response_status), body: row.response_body },
    };
  }

  async takeOver(seen: IdempotencyRecord, claim: IdempotencyClaim, now: Date): Promise<boolean> {
    // The condition is checked again by the database: of two requests taking over one record, the
    // second finds the claim token changed and updates nothing.
    const result = await this.db.run(
      `UPDATE idempotency_keys
          SET fingerprint = ?, claim_token = ?, state = 'RUNNING', lease_until = ?, created_at = ?,
              expires_at = ?, response_status = NULL, response_body = NULL
        WHERE ${THE_KEY} AND claim_token = ?
          AND (expires_at <= ? OR (state = 'RUNNING' AND lease_until <= ?))`,
      [
        claim.fingerprint,
        claim.claimToken,
        claim.leaseUntil,
        claim.createdAt,
        claim.expiresAt,
        seen.vendorId,
        seen.key,
        seen.claimToken,
        now,
        now,
      ],
    );
    return result.affected === 1;
  }

  async complete(claim: IdempotencyClaim, response: StoredResponse): Promise<boolean> {
    const result = await this.db.run(
      `UPDATE idempotency_keys SET state = 'DONE', lease_until = NULL, response_status = ?, response_body = ?
        WHERE ${THE_KEY} AND claim_token = ? AND state = 'RUNNING'`,
      [response.status, response.body, claim.vendorId, claim.key, claim.claimToken],
    );
    return result.affected === 1;
  }

  async release(claim: IdempotencyClaim): Promise<boolean> {
    const result = await this.db.run(
      `DELETE FROM idempotency_keys WHERE ${THE_KEY} AND claim_token = ? AND state = 'RUNNING'`,
      [claim.vendorId, claim.key, claim.claimToken],
    );
    return result.affected === 1;
  }

  async deleteExpired(now: Date, limit: number): Promise<number> {
    // The batch size is an integer of our own settings, written into the statement: a LIMIT bound
    // as a parameter is refused by some MySQL versions' prepared statements.
    const batch = Math.max(1, Math.trunc(limit));
    const sql =
      this.db.engine === 'mysql'
        ? `DELETE FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ${batch}`
        : `DELETE FROM idempotency_keys WHERE id IN
             (SELECT id FROM idempotency_keys WHERE expires_at <= ? ORDER BY expires_at LIMIT ${batch})`;
    return (await this.db.run(sql, [now])).affected;
  }
}
