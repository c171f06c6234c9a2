import type { Partner } from '../domain/partner';
import type { PartnerUser } from '../domain/partner-user';

/** What happened to a partner (X17, docs/webhooks.md), told with the partner as it now stands. */
export type PartnerEvent =
  | { type: 'partner.invited'; partner: Partner; users: PartnerUser[] }
  | { type: 'partner.users_invited'; partner: Partner; users: PartnerUser[] }
  | { type: 'partner.reinvited'; partner: Partner; emailAddress: string };

/**
 * Port for the partner use cases: publishes what happened, in the caller's transaction (X17). Call
 * it inside `UnitOfWork.run`, next to the invite emails it reports. The adapter renders the Partner
 * and PartnerUser as the API returns them (X18), which is HTTP code the use cases may not import,
 * and hands the event to the shared `DomainEvents` port.
 */
export abstract class PartnerEvents {
  abstract publish(vendorId: number, event: PartnerEvent): Promise<void>;
}
