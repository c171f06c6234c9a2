import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../shared/application/domain-events';
import { LeadEvent, LeadEvents } from '../application/lead-events';
import { toLeadResponse } from './lead.response';

/**
 * `data` is the Lead built by the function of the API's answers, plus what the event adds
 * (X18, docs/webhooks.md): a receiver reads the Lead it knows, with the same fields in the same order.
 */
function dataOf(event: LeadEvent): Record<string, unknown> {
  switch (event.type) {
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

/** The lead's events as domain events whose `data` is the API's Lead (X17, X18). */
@Injectable()
export class ApiLeadEvents extends LeadEvents {
  constructor(private readonly events: DomainEvents) {
    super();
  }

  publish(vendorId: number, event: LeadEvent): Promise<void> {
    return this.events.publish({ type: event.type, vendorId, data: dataOf(event) });
  }
}
