import type { DatabaseSchema } from '../../shared/infrastructure/database/database-schema';
import { MailOutbox1763700000300 } from './1763700000300-mail-outbox';
import { OutboxOrmEntity } from './outbox.orm-entity';

/** The mail module's table: mail_outbox. */
export const mailSchema: DatabaseSchema = {
  entities: [OutboxOrmEntity],
  migrations: [MailOutbox1763700000300],
};
