import { toLeadResponse } from '../../leads/http/lead.response';
import { toPartnerResponse, toPartnerUserResponse } from '../../partners/http/partner.response';
import type { WebhookEvent } from '../application/webhook-event';

/**
 * The `data` of an event (X18): the Partner, PartnerUser list or Lead exactly as the API returns
 * them (the same builders), plus what the event adds (docs/webhooks.md).
 */
export function webhookData(event: WebhookEvent): Record<string, unknown> {
  switch (event.type) {
    case 'partner.invited':
      return { ...toPartnerResponse(event.partner, event.users) };
    case 'partner.users_invited':
      return { partnerId: event.partner.id, users: event.users.map(toPartnerUserResponse) };
    case 'partner.reinvited':
      return { ...toPartnerResponse(event.partner, null), emailAddress: event.emailAddress };
    case 'lead.updated':
      return { ...toLeadResponse(event.lead), changedFields: [...event.changedFields] };
    case 'lead.approved':
      return { ...toLeadResponse(event.lead), contactId: event.contactId };
    case 'lead.created':
    case 'lead.rejected':
    case 'lead.archived':
      return { ...toLeadResponse(event.lead) };
  }
}
