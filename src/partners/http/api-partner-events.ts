import { Injectable } from '@nestjs/common';
import { DomainEvents } from '../../shared/application/domain-events';
import { PartnerEvent, PartnerEvents } from '../application/partner-events';
import { toPartnerResponse, toPartnerUserResponse } from './partner.response';

/**
 * `data` is the Partner or PartnerUser list built by the functions of the API's answers, plus what
 * the event adds (X18, docs/webhooks.md): a receiver reads the resources it knows, field for field.
 */
function dataOf(event: PartnerEvent): Record<string, unknown> {
  switch (event.type) {
    case 'partner.invited':
      return { ...toPartnerResponse(event.partner, event.users) };
    case 'partner.users_invited':
      return { partnerId: event.partner.id, users: event.users.map(toPartnerUserResponse) };
    case 'partner.reinvited':
      return { ...toPartnerResponse(event.partner, null), emailAddress: event.emailAddress };
  }
}

/** The partner's events as domain events whose `data` is the API's Partner (X17, X18). */
@Injectable()
export class ApiPartnerEvents extends PartnerEvents {
  constructor(private readonly events: DomainEvents) {
    super();
  }

  publish(vendorId: number, event: PartnerEvent): Promise<void> {
    return this.events.publish({ type: event.type, vendorId, data: dataOf(event) });
  }
}
