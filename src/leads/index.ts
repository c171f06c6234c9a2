/**
 * The leads module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { LeadsModule } from './leads.module';
export { LeadImportModule } from './lead-import.module';
export { leadsSchema } from './infrastructure/leads.schema';
export { leadCommands } from './cli/lead.commands';
