import { normalizeEmail } from '../../shared/domain/email';
import { foldCase, foldCaseOrNull } from '../../shared/domain/text';
import { Partner, PartnerType } from '../domain/partner';
import { PartnerUser } from '../domain/partner-user';
import { PartnerOrmEntity } from './partner.orm-entity';
import { PartnerUserOrmEntity } from './partner-user.orm-entity';
import { VendorPartnerOrmEntity } from './vendor-partner.orm-entity';

/** Domain <-> ORM rows, field by field, so a new column never reaches the domain (or the wire) by accident. */
export const PartnerMapper = {
  toDomain(row: PartnerOrmEntity): Partner {
    return Partner.restore({
      id: row.id,
      companyName: row.companyName,
      description: row.description,
      website: row.website,
      country: row.country,
      companySize: row.companySize,
      contactName: row.contactName,
      contactEmailAddress: row.contactEmailAddress,
      contactPhone: row.contactPhone,
      contactRole: row.contactRole,
      type: row.type as PartnerType | null,
      invitedAt: row.invitedAt,
      createdAt: row.createdAt,
    });
  },

  /** A row to insert (no id yet). */
  toRow(partner: Partner): Omit<PartnerOrmEntity, 'id'> {
    const p = partner.profile();
    return {
      companyName: p.companyName,
      description: p.description,
      website: p.website,
      country: p.country,
      companySize: p.companySize,
      contactName: p.contactName,
      contactEmailAddress: p.contactEmailAddress,
      contactPhone: p.contactPhone,
      contactRole: p.contactRole,
      type: p.type,
      invitedAt: p.invitedAt,
      createdAt: p.createdAt,
    };
  },
};

/**
 * X9: the connection row of a vendor and a stored partner, with the partner's copies its listing
 * sorts and searches by (lower-cased like every normalized key, D13).
 */
export function toConnectionRow(vendorId: number, partner: Partner, at: Date): VendorPartnerOrmEntity {
  const p = partner.snapshot();
  return {
    vendorId,
    partnerId: p.id,
    createdAt: at,
    partnerCreatedAt: p.createdAt,
    companyNameNormalized: foldCase(p.companyName),
    contactEmailNormalized: normalizeEmail(p.contactEmailAddress),
    partnerType: p.type,
  };
}

export const PartnerUserMapper = {
  toDomain(row: PartnerUserOrmEntity): PartnerUser {
    return PartnerUser.restore({
      id: row.id,
      partnerId: row.partnerId,
      firstName: row.firstName,
      lastName: row.lastName,
      emailAddress: row.emailAddress,
      phoneNumber: row.phoneNumber,
      jobTitle: row.jobTitle,
      lastActiveAt: row.lastActiveAt,
      createdAt: row.createdAt,
    });
  },

  /**
   * D13: the address is stored as sent, its lower-cased copy carries the unique index. D24: the names
   * sort by lower-cased copies written here, so that both engines order them by the same bytes.
   */
  toRow(user: PartnerUser): Omit<PartnerUserOrmEntity, 'id'> {
    return {
      partnerId: user.partnerId,
      firstName: user.firstName,
      firstNameNormalized: foldCase(user.firstName),
      lastName: user.lastName,
      lastNameNormalized: foldCaseOrNull(user.lastName),
      emailAddress: user.emailAddress,
      emailNormalized: normalizeEmail(user.emailAddress),
      phoneNumber: user.phoneNumber,
      jobTitle: user.jobTitle,
      jobTitleNormalized: foldCaseOrNull(user.jobTitle),
      lastActiveAt: user.lastActiveAt,
      createdAt: user.createdAt,
    };
  },
};
