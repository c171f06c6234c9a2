/**
 * The vendors module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { VendorsModule } from './vendors.module';
export { vendorsSchema } from './infrastructure/vendors.schema';
export { vendorCommands } from './cli/vendor.commands';
export { VendorDirectory } from './application/vendor-directory';
export { LeadOptionRepository } from './application/lead-option-repository';
export type { LeadOption, LeadOptionKind } from './domain/lead-option';
