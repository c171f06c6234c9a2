import { PartnerAccess } from '../../../src/partners/application/partner-access';
import { ConcurrentWriteConflict } from '../../../src/partners/application/concurrent-write-conflict';
import { InvitationRepository } from '../../../src/partners/application/invitation-repository';
import { PartnerRepository } from '../../../src/partners/application/partner-repository';
import { PartnerUserRepository } from '../../../src/partners/application/partner-user-repository';
import { Invitation, NewInvitation } from '../../../src/partners/domain/invitation';
import {
  Partner,
  PartnerListQuery,
  PartnerSnapshot,
  PartnerType,
} from '../../../src/partners/domain/partner';
import {
  PartnerUser,
  PartnerUserListQuery,
  PartnerUserSnapshot,
  PartnerUserSortKey,
} from '../../../src/partners/domain/partner-user';
import { Page } from '../../../src/shared/application/page';
import { normalizeEmail } from '../../../src/shared/domain/email';
import { foldCase } from '../../../src/shared/domain/text';
import { InMemoryUnitOfWork, Table, byCodePoint, pageOf } from './shared';

/** The partners module's ports in memory (src/partners/application/*-repository.ts, partner-access.ts). */

/** vendor_partners: the connection, with the copies the vendor's listing sorts and searches by (X9). */
interface ConnectionRow {
  id: number;
  vendorId: number;
  partnerId: number;
  createdAt: Date;
  partnerCreatedAt: Date;
  companyNameNormalized: string;
  contactEmailNormalized: string;
  partnerType: PartnerType | null;
}

export class InMemoryPartnerRepository extends PartnerRepository {
  readonly partners: Table<PartnerSnapshot>;
  readonly connections: Table<ConnectionRow>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.partners = uow.track(new Table<PartnerSnapshot>());
    this.connections = uow.track(new Table<ConnectionRow>());
  }

  async insert(partner: Partner): Promise<Partner> {
    const row = this.partners.insert(partner.profile());
    partner.identify(row.id);
    return partner;
  }

  async findById(partnerId: number): Promise<Partner | null> {
    const row = this.partners.get(partnerId);
    return row ? Partner.restore(row) : null;
  }

  async findConnected(vendorId: number, partnerId: number): Promise<Partner | null> {
    return this.isConnected(vendorId, partnerId) ? this.findById(partnerId) : null;
  }

  /** Whether the connection row exists (what InMemoryPartnerAccess answers, D25). */
  isConnected(vendorId: number, partnerId: number): boolean {
    return this.connections.find((c) => c.vendorId === vendorId && c.partnerId === partnerId) !== undefined;
  }

  async connect(vendorId: number, partner: Partner, at: Date): Promise<void> {
    // the primary key (vendor_id, partner_id) refuses a second connection (D20)
    if (this.isConnected(vendorId, partner.id)) throw new ConcurrentWriteConflict();
    const p = partner.snapshot();
    this.connections.insert({
      vendorId,
      partnerId: p.id,
      createdAt: at,
      partnerCreatedAt: p.createdAt,
      companyNameNormalized: foldCase(p.companyName),
      contactEmailNormalized: normalizeEmail(p.contactEmailAddress),
      partnerType: p.type,
    });
  }

  async listForVendor(query: PartnerListQuery): Promise<Page<Partner>> {
    const prefix = query.keyword ? foldCase(query.keyword) : undefined;
    const matching = this.connections.all(
      (c) =>
        c.vendorId === query.vendorId &&
        (!query.type || c.partnerType === query.type) &&
        (prefix === undefined ||
          c.companyNameNormalized.startsWith(prefix) ||
          c.contactEmailNormalized.startsWith(prefix)),
    );
    const sign = query.sortDirection === 'asc' ? 1 : -1;
    const key = (a: ConnectionRow, b: ConnectionRow): number => {
      if (query.sortBy === 'companyName')
        return byCodePoint(a.companyNameNormalized, b.companyNameNormalized);
      if (query.sortBy === 'createdAt') return a.partnerCreatedAt.getTime() - b.partnerCreatedAt.getTime();
      return 0;
    };
    // ties broken by id in the same direction (X9)
    matching.sort((a, b) => sign * (key(a, b) || a.partnerId - b.partnerId));
    const data = pageOf(matching, query.page, query.perPage).map((c) =>
      Partner.restore(this.partners.get(c.partnerId)!),
    );
    return { data, page: query.page, perPage: query.perPage, totalItems: matching.length };
  }

  async recordInvitedAt(partnerId: number, at: Date): Promise<void> {
    this.partners.update(partnerId, { invitedAt: at });
  }

  /** The partner as stored now. */
  stored(partnerId: number): PartnerSnapshot | undefined {
    return this.partners.get(partnerId);
  }
}

/** PartnerAccess over the same connections (D25), as the leads module sees them. */
export class InMemoryPartnerAccess extends PartnerAccess {
  constructor(private readonly partners: InMemoryPartnerRepository) {
    super();
  }

  async isConnected(vendorId: number, partnerId: number): Promise<boolean> {
    return this.partners.isConnected(vendorId, partnerId);
  }
}

const SORT_VALUES: Record<PartnerUserSortKey, (u: PartnerUser) => string | number | null> = {
  id: (u) => u.id,
  firstName: (u) => foldCase(u.firstName),
  lastName: (u) => (u.lastName === null ? null : foldCase(u.lastName)),
  emailAddress: (u) => normalizeEmail(u.emailAddress),
  jobTitle: (u) => (u.jobTitle === null ? null : foldCase(u.jobTitle)),
  createdAt: (u) => u.createdAt.getTime(),
};

function compareSortValues(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return -1; // nulls first (D24)
  if (b === null) return 1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : byCodePoint(String(a), String(b));
}

/** The row of a user, as the SQL adapter writes it (PartnerUserMapper.toRow, without the normalized copy). */
function rowOf(user: PartnerUser): Omit<PartnerUserSnapshot, 'id'> {
  return {
    partnerId: user.partnerId,
    firstName: user.firstName,
    lastName: user.lastName,
    emailAddress: user.emailAddress,
    phoneNumber: user.phoneNumber,
    jobTitle: user.jobTitle,
    lastActiveAt: user.lastActiveAt,
    createdAt: user.createdAt,
  };
}

export class InMemoryPartnerUserRepository extends PartnerUserRepository {
  readonly table: Table<PartnerUserSnapshot>;
  private beforeInsert: (() => void) | undefined;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<PartnerUserSnapshot>());
  }

  /** Runs `hook` once, at the start of the next insertAll (to let a "concurrent request" take an address first). */
  beforeNextInsert(hook: () => void): void {
    this.beforeInsert = hook;
  }

  private byEmail(emailNormalized: string): PartnerUserSnapshot | undefined {
    return this.table.find((u) => normalizeEmail(u.emailAddress) === emailNormalized);
  }

  async findByEmail(emailNormalized: string): Promise<PartnerUser | null> {
    const row = this.byEmail(emailNormalized);
    return row ? PartnerUser.restore(row) : null;
  }

  async takenEmails(emailsNormalized: string[]): Promise<Set<string>> {
    return new Set(emailsNormalized.filter((email) => this.byEmail(email) !== undefined));
  }

  async findInPartnerByEmail(partnerId: number, emailNormalized: string): Promise<PartnerUser | null> {
    const row = this.byEmail(emailNormalized);
    return row && row.partnerId === partnerId ? PartnerUser.restore(row) : null;
  }

  async findById(userId: number): Promise<PartnerUser | null> {
    const row = this.table.get(userId);
    return row ? PartnerUser.restore(row) : null;
  }

  async lockInPartner(partnerId: number, userId: number): Promise<PartnerUser | null> {
    const row = this.table.get(userId);
    return row && row.partnerId === partnerId ? PartnerUser.restore(row) : null;
  }

  async saveLastActiveAt(user: PartnerUser): Promise<void> {
    this.table.update(user.id, { lastActiveAt: user.lastActiveAt });
  }

  async insertAll(users: PartnerUser[]): Promise<PartnerUser[]> {
    const hook = this.beforeInsert;
    this.beforeInsert = undefined;
    hook?.();
    for (const user of users) {
      const email = normalizeEmail(user.emailAddress);
      // ux_partner_users_email (D13): the SQL adapter turns the violation into this error
      if (this.byEmail(email)) throw new ConcurrentWriteConflict(email);
      user.identify(this.table.insert(rowOf(user)).id);
    }
    return users;
  }

  async listForPartner(query: PartnerUserListQuery): Promise<Page<PartnerUser>> {
    const users = this.table
      .all((u) => u.partnerId === query.partnerId)
      .map((row) => PartnerUser.restore(row));
    const value = SORT_VALUES[query.sortBy];
    users.sort((a, b) => compareSortValues(value(a), value(b)) || a.id - b.id);
    return {
      data: pageOf(users, query.page, query.perPage),
      page: query.page,
      perPage: query.perPage,
      totalItems: users.length,
    };
  }

  /** A stored user, for arranging a test (a user "inserted by another request"): its id. */
  add(user: PartnerUser): number {
    return this.table.insert(rowOf(user)).id;
  }

  /** The users of a partner as stored, in id order. */
  ofPartner(partnerId: number): PartnerUserSnapshot[] {
    return this.table.all((u) => u.partnerId === partnerId);
  }
}

interface InvitationRow extends NewInvitation {
  id: number;
  acceptedAt: Date | null;
}

export class InMemoryInvitationRepository extends InvitationRepository {
  readonly table: Table<InvitationRow>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<InvitationRow>());
  }

  async insert(invitation: NewInvitation): Promise<void> {
    // ux_invitations_token_hash
    if (this.table.find((i) => i.tokenHash === invitation.tokenHash)) throw new Error('duplicate token hash');
    this.table.insert({ ...invitation, acceptedAt: null });
  }

  async findForVendorByTokenHash(vendorId: number, tokenHash: string): Promise<Invitation | null> {
    const row = this.table.find((i) => i.tokenHash === tokenHash && i.vendorId === vendorId);
    if (!row) return null;
    // superseded: a later invitation (a higher id) of the same user for the same vendor exists
    const superseded =
      this.table.find((i) => i.userId === row.userId && i.vendorId === row.vendorId && i.id > row.id) !==
      undefined;
    return Invitation.restore({
      id: row.id,
      userId: row.userId,
      vendorId: row.vendorId,
      createdAt: row.createdAt,
      acceptedAt: row.acceptedAt,
      superseded,
    });
  }

  async markAccepted(invitationId: number, at: Date): Promise<boolean> {
    const row = this.table.get(invitationId);
    if (!row || row.acceptedAt !== null) return false;
    return this.table.update(invitationId, { acceptedAt: at });
  }
}
