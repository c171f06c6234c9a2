import type { LeadView } from '../../leads';
import type { Partner, PartnerUser } from '../../partners';

/**
 * What a use case reports (X17). The WebhookPayloads port turns it into the event's `data`, built by
 * the same functions as the API's answers, so a receiver reads the Partner, PartnerUser and Lead it knows
 * (docs/webhooks.md lists each payload).
 */
export type WebhookEvent =
  | { type: 'partner.invited'; partner: Partner; users: PartnerUser[] }
  | { type: 'partner.users_invited'; partner: Partner; users: PartnerUser[] }
  | { type: 'partner.reinvited'; partner: Partner; emailAddress: string }
  | { type: 'lead.created'; lead: LeadView }
  | { type: 'lead.updated'; lead: LeadView; changedFields: readonly string[] }
  | { type: 'lead.approved'; lead: LeadView; contactId: number }
  | { type: 'lead.rejected'; lead: LeadView }
  | { type: 'lead.archived'; lead: LeadView };
