import { Injectable } from '@nestjs/common';
import { toLeadResponse } from './leads';
import { toPartnerResponse, toPartnerUserResponse } from './partners';
import { type WebhookEvent, WebhookPayloads } from './webhooks';

/**
 * The `data` of an event (X18): the Partner, PartnerUser list or Lead built by the same functions as
 * the API's answers, plus what the event adds (docs/webhooks.md). At the composition root because
 * it joins three modules: partners and leads publish through webhooks, and webhooks imports neither.
 */
@Injectable()
export class ApiWebhookPayloads extends WebhookPayloads {
  dataOf(event: WebhookEvent): Record<string, unknown> {
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
}
