import { Contact } from '../domain/contact';
import { ContactMapper } from './contact.mapper';

describe('ContactMapper', () => {
  it('round-trips every field of a contact through its row', () => {
    const contact = Contact.restore({
      id: 5,
      vendorId: 1,
      partnerId: 2,
      leadId: 3,
      firstName: 'Ada',
      lastName: null,
      emailAddress: 'Ada@Example.com',
      emailNormalized: 'ada@example.com',
      phoneNumber: '+1',
      linkedInUrl: null,
      jobTitle: 'CTO',
      companyName: 'Engines',
      websiteUrl: 'https://e.test',
      companySize: '10',
      industry: null,
      city: 'London',
      state: null,
      country: 'UK',
      createdAt: new Date('2026-01-01T00:00:00.123Z'),
    });
    expect(ContactMapper.toDomain(ContactMapper.toRow(contact)).snapshot()).toEqual(contact.snapshot());
  });
});
