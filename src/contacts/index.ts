/**
 * The contacts module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { ContactsModule } from './contacts.module';
export { contactsSchema } from './infrastructure/contacts.schema';
export { ContactRepository } from './application/contact-repository';
export { Contact } from './domain/contact';
export type { ContactConversion } from './domain/contact';
export { otherContactHasEmailSql } from './infrastructure/contacts.queries';
