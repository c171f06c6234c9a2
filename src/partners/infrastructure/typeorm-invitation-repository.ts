import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { IsNull, MoreThan } from 'typeorm';
import { InvitationRepository } from '../application/invitation-repository';
import { Invitation, NewInvitation } from '../domain/invitation';
import { InvitationOrmEntity } from './invitation.orm-entity';

@Injectable()
export class TypeOrmInvitationRepository extends InvitationRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get invitations() {
    return this.txHost.tx.getRepository(InvitationOrmEntity);
  }

  async insert(invitation: NewInvitation): Promise<void> {
    await this.invitations.insert({ ...invitation, usedAt: null });
  }

  /**
   * X20: found by the unique index on token_hash, for the caller's vendor only. An invitation is
   * superseded when a later one (a higher id: ids grow with time) exists for the same user and vendor,
   * which only a reinvite creates; ix_invitations_user_vendor answers that. `used_at` is when the link
   * was accepted.
   */
  async findForVendorByTokenHash(vendorId: number, tokenHash: string): Promise<Invitation | null> {
    const row = await this.invitations.findOne({ where: { tokenHash, vendorId } });
    if (!row) return null;
    const id = Number(row.id);
    const superseded = await this.invitations.exists({
      where: { userId: row.userId, vendorId: row.vendorId, id: MoreThan(id) },
    });
    return Invitation.restore({
      id,
      userId: row.userId,
      vendorId: row.vendorId,
      createdAt: row.createdAt,
      acceptedAt: row.usedAt,
      superseded,
    });
  }

  async markAccepted(invitationId: number, at: Date): Promise<boolean> {
    // One conditional write: on MySQL a concurrent accept waits here for the first one's row lock,
    // then finds used_at set and changes nothing.
    const result = await this.invitations.update({ id: invitationId, usedAt: IsNull() }, { usedAt: at });
    return result.affected === 1;
  }
}
