import { Contact } from '../domain/contact';

export abstract class ContactRepository {
  abstract findByLead(leadId: number): Promise<Contact | null>;

  /**
   * Stores the contact of a lead unless that lead already has one, and returns the lead's contact
   * either way: UNIQUE(lead_id) is the last guard against a second contact (D32), so a unique
   * violation here means another transaction converted the lead first, and its contact is returned.
   */
  abstract insertOnce(contact: Contact): Promise<Contact>;
}
