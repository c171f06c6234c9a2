/**
 * What happened, as the module it happened in tells it (X17): a plain object, so that a module that
 * publishes events and a module that acts on them know this shape and nothing of each other.
 */
export interface DomainEvent {
  /** `<resource>.<what happened>`, e.g. `lead.approved`: the webhook event types (docs/webhooks.md) */
  readonly type: string;
  /** the vendor whose data changed: the event is that vendor's alone (X17 sends it to its endpoints) */
  readonly vendorId: number;
  /**
   * The event's content, rendered by the publishing module, which alone knows its resources: the
   * Lead, Partner and PartnerUser as its API returns them (X18). Sent as it is, so JSON values only.
   */
  readonly data: Record<string, unknown>;
}

/**
 * Port: publishes a domain event in the caller's transaction (an outbox, X17): call it inside
 * `UnitOfWork.run`, after the change it reports and only when the change changed something, so that
 * there is no event without its change and no change without its event. An adapter that cannot write
 * the event throws, and the change rolls back with it.
 */
export abstract class DomainEvents {
  abstract publish(event: DomainEvent): Promise<void>;
}
