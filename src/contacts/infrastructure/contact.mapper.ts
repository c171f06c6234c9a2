import { Contact, ContactSnapshot } from '../domain/contact';
import { ContactOrmEntity } from './contact.orm-entity';

/** Domain <-> row, field by field, so a column never reaches the domain (or the wire) unseen. */
export const ContactMapper = {
  toDomain(row: ContactOrmEntity): Contact {
    const snapshot: ContactSnapshot = {
      id: row.id,
      vendorId: row.vendorId,
      partnerId: row.partnerId,
      leadId: row.leadId,
      firstName: row.firstName,
      lastName: row.lastName,
      emailAddress: row.emailAddress,
      emailNormalized: row.emailNormalized,
      phoneNumber: row.phoneNumber,
      linkedInUrl: row.linkedInUrl,
      jobTitle: row.jobTitle,
      companyName: row.companyName,
      websiteUrl: row.websiteUrl,
      companySize: row.companySize,
      industry: row.industry,
      city: row.city,
      state: row.state,
      country: row.country,
      createdAt: row.createdAt,
    };
    return Contact.restore(snapshot);
  },

  toRow(contact: Contact): ContactOrmEntity {
    const s = contact.snapshot();
    const row = new ContactOrmEntity();
    if (s.id !== undefined) row.id = s.id;
    row.vendorId = s.vendorId;
    row.partnerId = s.partnerId;
    row.leadId = s.leadId;
    row.firstName = s.firstName;
    row.lastName = s.lastName;
    row.emailAddress = s.emailAddress;
    row.emailNormalized = s.emailNormalized;
    row.phoneNumber = s.phoneNumber;
    row.linkedInUrl = s.linkedInUrl;
    row.jobTitle = s.jobTitle;
    row.companyName = s.companyName;
    row.websiteUrl = s.websiteUrl;
    row.companySize = s.companySize;
    row.industry = s.industry;
    row.city = s.city;
    row.state = s.state;
    row.country = s.country;
    row.createdAt = s.createdAt;
    return row;
  },
};
