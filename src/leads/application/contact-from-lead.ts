import { Contact } from '../../contacts';
import { Lead } from '../domain/lead';

/** Approve converts a lead into a contact: the vendor, the lead, and the lead's person and company fields. */
export function contactFromLead(lead: Lead, now: Date): Contact {
  const d = lead.details;
  return Contact.convert(
    {
      vendorId: lead.vendorId,
      partnerId: lead.partnerId,
      leadId: lead.id!,
      firstName: d.firstName,
      lastName: d.lastName,
      emailAddress: d.emailAddress,
      emailNormalized: lead.emailNormalized,
      phoneNumber: d.phoneNumber,
      linkedInUrl: d.linkedInUrl,
      jobTitle: d.jobTitle,
      companyName: d.companyName,
      websiteUrl: d.websiteUrl,
      companySize: d.companySize,
      industry: d.industry,
      city: d.city,
      state: d.state,
      country: d.country,
    },
    now,
  );
}
