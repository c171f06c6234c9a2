import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { Webhooks1763700000800 } from './1763700000800-webhooks';
import { WebhookDeliveryOrmEntity } from './webhook-delivery.orm-entity';
import { WebhookEndpointOrmEntity } from './webhook-endpoint.orm-entity';
import { WebhookEventOrmEntity } from './webhook-event.orm-entity';

/** The webhooks module's tables: webhook_endpoints, webhook_events, webhook_deliveries. */
export const webhooksSchema: DatabaseSchema = {
  entities: [WebhookEndpointOrmEntity, WebhookEventOrmEntity, WebhookDeliveryOrmEntity],
  migrations: [Webhooks1763700000800],
};
