import { MailMessage } from '../../../src/mail/application/mail-message';
import { Outbox } from '../../../src/mail/application/outbox';
import { InMemoryUnitOfWork, Table } from './shared';

interface OutboxRow extends MailMessage {
  id: number;
}

/**
 * The Outbox port in memory (src/mail/application/outbox.ts): a message queued inside a transaction
 * that rolls back is gone with it (D35), and, as the SQL adapter, it refuses to queue outside one.
 */
export class InMemoryOutbox extends Outbox {
  readonly table: Table<OutboxRow>;

  constructor(private readonly uow: InMemoryUnitOfWork) {
    super();
    this.table = uow.track(new Table<OutboxRow>());
  }

  async enqueue(message: MailMessage): Promise<void> {
    if (!this.uow.inTransaction) throw new Error('Outbox.enqueue must be called inside UnitOfWork.run');
    this.table.insert(message);
  }

  /** The queued messages, oldest first. */
  messages(): MailMessage[] {
    return this.table.all().map(({ id: _id, ...message }) => message);
  }

  /** Recipients of the queued messages, oldest first. */
  recipients(): string[] {
    return this.messages().map((m) => m.to);
  }
}

export { InMemoryOutboxStore, RecordingMailSender } from '../mail-fakes';
