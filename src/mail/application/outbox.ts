import { MailMessage } from './mail-message';

/**
 * Port for use cases: queues an email in the current transaction (D35). It is sent by the
 * MailDispatcher only once that transaction has committed; a rollback discards it.
 * Call it inside `UnitOfWork.run`.
 */
export abstract class Outbox {
  abstract enqueue(message: MailMessage): Promise<void>;
}
