import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import {
  dateFromRow,
  nullableDateFromRow,
  SqlDatabase,
} from '../../shared/infrastructure/database/sql-database';
import { InvitationRepository } from '../application/invitation-repository';
import { Invitation, NewInvitation } from '../domain/invitation';
import { InvitationOrmEntity } from './invitation.orm-entity';

interface InvitationRow {
  id: number | string;
  userId: number | string;
  vendorId: number | string;
  createdAt: unknown;
  usedAt: unknown;
  superseded: number | string;
}

/**
 * X20: found by the unique index on token_hash, for the caller's vendor only. An invitation is
 * superseded when a later one (a higher id: ids grow with time) exists for the same user and vendor,
 * which only a reinvite creates; ix_invitations_user_vendor answers that. `used_at` is when the link
 * was accepted.
 */
const FIND_BY_TOKEN_HASH = `SELECT i.id AS id, i.user_id AS userId, i.vendor_id AS vendorId,
    i.created_at AS createdAt, i.used_at AS usedAt,
    EXISTS (SELECT 1 FROM invitations later
      WHERE later.user_id = i.user_id AND later.vendor_id = i.vendor_id AND later.id > i.id) AS superseded
  FROM invitations i WHERE i.token_hash = ? AND i.vendor_id = ?`;

@Injectable()
export class TypeOrmInvitationRepository extends InvitationRepository {
  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly db: SqlDatabase,
  ) {
    super();
  }

  async insert(invitation: NewInvitation): Promise<void> {
    await this.txHost.tx.getRepository(InvitationOrmEntity).insert({ ...invitation, usedAt: null });
  }

  async findForVendorByTokenHash(vendorId: number, tokenHash: string): Promise<Invitation | null> {
    const row = await this.db.one<InvitationRow>(FIND_BY_TOKEN_HASH, [tokenHash, vendorId]);
    if (!row) return null;
    return Invitation.restore({
      id: Number(row.id),
      userId: Number(row.userId),
      vendorId: Number(row.vendorId),
      createdAt: dateFromRow(row.createdAt),
      acceptedAt: nullableDateFromRow(row.usedAt),
      superseded: Number(row.superseded) === 1,
    });
  }

  async markAccepted(invitationId: number, at: Date): Promise<boolean> {
    // On MySQL a concurrent accept waits here for the first one's row lock, then finds used_at set.
    const result = await this.db.run('UPDATE invitations SET used_at = ? WHERE id = ? AND used_at IS NULL', [
      at,
      invitationId,
    ]);
    return result.affected === 1;
  }
}
