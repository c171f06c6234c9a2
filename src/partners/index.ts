/**
 * The partners module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { PartnersModule } from './partners.module';
export { PartnerAccessModule } from './partner-access.module';
export { partnersSchema } from './infrastructure/partners.schema';
export { PartnerAccess } from './application/partner-access';
