import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { MailDispatcher } from './application/mail-dispatcher';
import { MailDispatcherSettings } from './application/mail-dispatcher.settings';
import { MailSender } from './application/mail-sender';
import { Outbox } from './application/outbox';
import { OutboxStore } from './application/outbox-store';
import { OutboxOrmEntity } from './infrastructure/outbox.orm-entity';
import { LogMailSender } from './infrastructure/log-mail-sender';
import { MailMetrics } from './infrastructure/mail-metrics';
import { SmtpMailSender } from './infrastructure/smtp-mail-sender';
import { TypeOrmOutbox } from './infrastructure/typeorm-outbox';
import { TypeOrmOutboxStore } from './infrastructure/typeorm-outbox-store';

/**
 * Outgoing email: the Outbox port use cases write to inside their transaction, and the dispatcher that
 * delivers it from the server process. Not imported by the CLI, so the dispatcher never runs there.
 */
@Module({
  imports: [TypeOrmModule.forFeature([OutboxOrmEntity])],
  providers: [
    { provide: MailDispatcherSettings, useValue: new MailDispatcherSettings() },
    { provide: Outbox, useClass: TypeOrmOutbox },
    { provide: OutboxStore, useClass: TypeOrmOutboxStore },
    {
      provide: MailSender,
      inject: [AppConfig],
      useFactory: (config: AppConfig): MailSender =>
        config.smtpUrl ? new SmtpMailSender(config.smtpUrl) : new LogMailSender(),
    },
    MailDispatcher,
    MailMetrics,
  ],
  exports: [Outbox, MailDispatcher],
})
export class MailModule {}
