import { IdempotencyKeyOrmEntity } from '../../../idempotency/infrastructure/idempotency-key.orm-entity';
import { ContactOrmEntity } from '../../../contacts/infrastructure/contact.orm-entity';
import { LeadCountOrmEntity } from '../../../leads/infrastructure/lead-count.orm-entity';
import { LeadHistoryOrmEntity } from '../../../leads/infrastructure/lead-history.orm-entity';
import { LeadOrmEntity } from '../../../leads/infrastructure/lead.orm-entity';
import { OutboxOrmEntity } from '../../../mail/infrastructure/outbox.orm-entity';
import { InvitationOrmEntity } from '../../../partners/infrastructure/invitation.orm-entity';
import { PartnerOrmEntity } from '../../../partners/infrastructure/partner.orm-entity';
import { PartnerUserOrmEntity } from '../../../partners/infrastructure/partner-user.orm-entity';
import { VendorPartnerOrmEntity } from '../../../partners/infrastructure/vendor-partner.orm-entity';
import { ApiKeyOrmEntity } from '../../../vendors/infrastructure/api-key.orm-entity';
import { LeadOptionOrmEntity } from '../../../vendors/infrastructure/lead-option.orm-entity';
import { VendorOrmEntity } from '../../../vendors/infrastructure/vendor.orm-entity';
import { WebhookDeliveryOrmEntity } from '../../../webhooks/infrastructure/webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from '../../../webhooks/infrastructure/webhook-endpoint.orm-entity';
import { WebhookEventOrmEntity } from '../../../webhooks/infrastructure/webhook-event.orm-entity';

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
