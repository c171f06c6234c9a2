/**
 * The partners module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { PartnersModule } from './partners.module';
export { PartnerAccessModule } from './partner-access.module';
export { partnersSchema } from './infrastructure/partners.schema';
export { PartnerAccess } from './application/partner-access';
export type { Partner } from './domain/partner';
export type { PartnerUser } from './domain/partner-user';
/** The API's Partner and PartnerUser, which webhook payloads repeat (X18). */
export { toPartnerResponse, toPartnerUserResponse } from './http/partner.response';
