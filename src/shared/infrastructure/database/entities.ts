import { IdempotencyKeyOrmEntity } from '../../../idempotency/infrastructure/idempotency-key.orm-entity';
import { ContactOrmEntity } from '../../../contacts/infrastructure/contact.orm-entity';
import { LeadCountOrmEntity } from '../../../leads/infrastructure/lead-count.orm-entity';
import { LeadHistoryOrmEntity } from '../../../leads/infrastructure/lead-history.orm-entity';
import { LeadOrmEntity } from '../../../leads/infrastructure/lead.orm-entity';
import { OutboxOrmEntity } from '../../../mail/infrastructure/outbox.orm-entity';
import {
  InvitationOrmEntity,
  PartnerOrmEntity,
  PartnerUserOrmEntity,
  VendorPartnerOrmEntity,
} from '../../../partners/infrastructure/partner.orm-entities';
import {
  ApiKeyOrmEntity,
  LeadOptionOrmEntity,
  VendorOrmEntity,
} from '../../../vendors/infrastructure/vendor.orm-entities';
import {
  WebhookDeliveryOrmEntity,
  WebhookEndpointOrmEntity,
  WebhookEventOrmEntity,
} from '../../../webhooks/infrastructure/webhook.orm-entities';

/**
 * Every ORM entity, registered with every data source whatever modules it serves (the server, the
 * CLI, a test context of one module, the TypeORM CLI): their foreign keys name each other's tables,
 * so one entity cannot be known without the tables it refers to. Like the migration list, this file
 * imports every module (docs/architecture.md). A module still lists its own entities in
 * `TypeOrmModule.forFeature`; an entity missing here fails at start ("No metadata for ...").
 */
export const entities = [
  VendorOrmEntity,
  ApiKeyOrmEntity,
  LeadOptionOrmEntity,
  PartnerOrmEntity,
  PartnerUserOrmEntity,
  VendorPartnerOrmEntity,
  InvitationOrmEntity,
  OutboxOrmEntity,
  LeadOrmEntity,
  LeadCountOrmEntity,
  LeadHistoryOrmEntity,
  ContactOrmEntity,
  IdempotencyKeyOrmEntity,
  WebhookEndpointOrmEntity,
  WebhookEventOrmEntity,
  WebhookDeliveryOrmEntity,
];
