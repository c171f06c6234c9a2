/**
 * The contacts module's hand-written SQL. It has no hot read of its own: a contact is read and
 * written by the lead's approval, through TypeORM (TypeOrmContactRepository).
 *
 * D28, the contact half of a lead's isDuplicate, as a condition for another module's SQL: a contact
 * of the vendor of the lead row `lead` (its alias), other than that lead's own, has the lead's
 * normalized email. The leads module computes isDuplicate for a whole page in one statement, so it
 * takes this condition rather than asking in a second query; the contacts table and its index
 * `ix_contacts_vendor_email` stay this module's to change.
 */
export function otherContactHasEmailSql(lead: string): string {
  return `EXISTS (SELECT 1 FROM contacts c
                 WHERE c.vendor_id = ${lead}.vendor_id AND c.email_normalized = ${lead}.email_normalized
                   AND c.lead_id <> ${lead}.id)`;
}
