import { ContactRepository } from '../../../src/contacts/application/contact-repository';
import { Contact, ContactSnapshot } from '../../../src/contacts/domain/contact';
import { InMemoryUnitOfWork, Table } from './shared';

type ContactRow = ContactSnapshot & { id: number };

/** The contacts module's port in memory (src/contacts/application/contact-repository.ts). */
export class InMemoryContactRepository extends ContactRepository {
  readonly table: Table<ContactRow>;

  constructor(uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<ContactRow>());
  }

  async findByLead(leadId: number): Promise<Contact | null> {
    const row = this.table.find((c) => c.leadId === leadId);
    return row ? Contact.restore(row) : null;
  }

  async insertOnce(contact: Contact): Promise<Contact> {
    // UNIQUE(lead_id), the last guard of D32: the lead's existing contact is returned
    const existing = await this.findByLead(contact.leadId);
    if (existing) return existing;
    const { id: _none, ...values } = contact.snapshot();
    contact.identify(this.table.insert(values).id);
    return contact;
  }

  /** The contacts of a vendor, as stored. */
  ofVendor(vendorId: number): ContactSnapshot[] {
    return this.table.all((c) => c.vendorId === vendorId);
  }
}
