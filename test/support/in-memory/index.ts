import { AppConfig } from '../../../src/config/app-config';
import { InMemoryContactRepository } from './contacts';
import { InMemoryIdempotencyStore } from './idempotency';
import { InMemoryLeadBatchWriter, InMemoryLeadHistory, InMemoryLeadRepository } from './leads';
import { InMemoryOutbox } from './mail';
import {
  InMemoryInvitationRepository,
  InMemoryPartnerAccess,
  InMemoryPartnerRepository,
  InMemoryPartnerUserRepository,
} from './partners';
import { InMemoryUnitOfWork, ManualClock } from './shared';
import { ApiLeadEvents } from '../../../src/leads/http/api-lead-events';
import { ApiPartnerEvents } from '../../../src/partners/http/api-partner-events';
import { WebhookDomainEvents } from '../../../src/webhooks/application/webhook-domain-events';
import {
  InMemoryApiKeyRepository,
  InMemoryLeadOptionRepository,
  InMemoryVendorDirectory,
  InMemoryVendorRepository,
} from './vendors';
import {
  InMemoryWebhookDeliveries,
  InMemoryWebhookEndpoints,
  InMemoryWebhookEvents,
  InMemoryWebhookTables,
  StubDestinationGuard,
} from './webhooks';

export * from './contacts';
export * from './idempotency';
export * from './leads';
export * from './mail';
export * from './partners';
export * from './shared';
export * from './vendors';
export * from './webhooks';

/** PORTAL_URL of the in-memory world: invite links start with it (D36). */
export const PORTAL_URL = 'https://portal.test/app';

/**
 * Every port of the application over one in-memory unit of work, wired as the modules wire the
 * SQL adapters (the partner listing and PartnerAccess share the connections, D28 sees the contacts,
 * the bulk import writes into the lead table). One per test: nothing is shared between tests.
 */
export function inMemoryAdapters(env: Record<string, string> = {}) {
  const uow = new InMemoryUnitOfWork();
  const clock = new ManualClock();
  const config: AppConfig = AppConfig.fromEnv({ PORTAL_URL, ...env });
  const vendors = new InMemoryVendorRepository(uow);
  const partners = new InMemoryPartnerRepository(uow);
  const contacts = new InMemoryContactRepository(uow);
  const leads = new InMemoryLeadRepository(uow, contacts);
  const webhookTables = new InMemoryWebhookTables(uow);
  const webhookEvents = new InMemoryWebhookEvents(uow, webhookTables, clock);
  // bound as the modules bind them: webhooks implements the shared port, leads and partners render
  const domainEvents = new WebhookDomainEvents(webhookEvents);
  return {
    uow,
    clock,
    config,
    vendors,
    apiKeys: new InMemoryApiKeyRepository(uow),
    leadOptions: new InMemoryLeadOptionRepository(uow),
    partners,
    partnerAccess: new InMemoryPartnerAccess(partners),
    users: new InMemoryPartnerUserRepository(uow),
    invitations: new InMemoryInvitationRepository(uow),
    vendorDirectory: new InMemoryVendorDirectory(vendors),
    contacts,
    leads,
    leadHistory: new InMemoryLeadHistory(uow),
    leadBatchWriter: new InMemoryLeadBatchWriter(leads),
    outbox: new InMemoryOutbox(uow),
    webhookTables,
    webhookEndpoints: new InMemoryWebhookEndpoints(webhookTables),
    webhookEvents,
    domainEvents,
    leadEvents: new ApiLeadEvents(domainEvents),
    partnerEvents: new ApiPartnerEvents(domainEvents),
    webhookDeliveries: new InMemoryWebhookDeliveries(webhookTables),
    destinationGuard: new StubDestinationGuard(),
    idempotencyStore: new InMemoryIdempotencyStore(uow),
  };
}

export type InMemoryAdapters = ReturnType<typeof inMemoryAdapters>;
