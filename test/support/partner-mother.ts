import { NestFastifyApplication } from '@nestjs/platform-fastify';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';
import { PartnerOrmEntity } from '../../src/partners/infrastructure/partner.orm-entity';
import { Clock } from '../../src/shared/domain/clock';
import { unique } from './test-app';

export const PARTNERS = '/api/v1/vendors/partners';

export interface PartnerUserRequestBody {
  firstName: string;
  emailAddress: string;
  lastName?: string | null;
  phoneNumber?: string | null;
  jobTitle?: string | null;
}

/** Request bodies for the partner endpoints, with addresses no other test uses. */
export const PartnerMother = {
  email(prefix = 'user'): string {
    return `${unique(prefix)}@partner.test`;
  },

  user(overrides: Partial<PartnerUserRequestBody> = {}): PartnerUserRequestBody {
    return { firstName: 'Ann', emailAddress: PartnerMother.email('user'), ...overrides };
  },

  /** An invite body with only the required fields (users omitted: D19). */
  invite(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      companyName: `Company ${unique()}`,
      contactName: 'Carla Contact',
      contactEmailAddress: PartnerMother.email('contact'),
      ...overrides,
    };
  },

  /** An invite body with every field set. */
  fullInvite(overrides: Record<string, unknown> = {}): Record<string, unknown> {
    return PartnerMother.invite({
      description: 'We resell things.',
      website: 'https://partner.test',
      country: 'DE',
      companySize: '11-50',
      contactPhone: '+49 30 123456',
      contactRole: 'CEO',
      type: 'RESELLER',
      ...overrides,
    });
  },
};

export interface PartnerBody {
  id: number;
  companyName: string;
  contactEmailAddress: string;
  invitedAt: string | null;
  users?: { id: number; emailAddress: string; firstName: string; lastName: string | null }[];
  [key: string]: unknown;
}

/** Invites a partner through the API and insists it worked. */
export async function invitePartner(
  http: TestAgent,
  apiKey: string,
  body: Record<string, unknown> = PartnerMother.invite(),
): Promise<PartnerBody> {
  const response = await http.post(PARTNERS).set('X-API-KEY', apiKey).send(body);
  if (response.status !== 200)
    throw new Error(`invite failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.data as PartnerBody;
}

/** Counts rows of a table matching a condition, straight from the database (DB effect of a request). */
export async function countRows(
  app: NestFastifyApplication,
  table: string,
  where: string,
  params: unknown[],
): Promise<number> {
  const rows: { n: number | string }[] = await app
    .get(DataSource)
    .query(`SELECT COUNT(*) AS n FROM ${table} WHERE ${where}`, params);
  return Number(rows[0]!.n);
}

/** Partners whose company name is exactly this one. */
export function countPartners(app: NestFastifyApplication, companyName: string): Promise<number> {
  return countRows(app, 'partners', 'company_name = ?', [companyName]);
}

/** Users with this address (case-insensitive, D13). */
export function countUsers(app: NestFastifyApplication, emailAddress: string): Promise<number> {
  return countRows(app, 'partner_users', 'email_normalized = ?', [emailAddress.toLowerCase()]);
}

/** A clock tests can pin to a given instant (invitedAt, createdAt assertions); real time otherwise. */
export class SettableClock extends Clock {
  private pinned: Date | undefined;

  now(): Date {
    return this.pinned ? new Date(this.pinned.getTime()) : new Date();
  }

  pin(iso: string): Date {
    this.pinned = new Date(iso);
    return this.pinned;
  }

  release(): void {
    this.pinned = undefined;
  }
}

/** invited_at of a partner, as stored. */
export async function storedInvitedAt(
  app: NestFastifyApplication,
  partnerId: number,
): Promise<string | null> {
  const row = await app.get(DataSource).getRepository(PartnerOrmEntity).findOneByOrFail({ id: partnerId });
  return row.invitedAt ? row.invitedAt.toISOString() : null;
}
