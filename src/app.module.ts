import { Module } from '@nestjs/common';
import { ContactsModule } from './contacts/contacts.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { LeadsModule } from './leads/leads.module';
import { MailModule } from './mail/mail.module';
import { PartnersModule } from './partners/partners.module';
import { HttpEdgeModule } from './shared/http/http-edge.module';
import { loggingModule } from './shared/logging.module';
import { ManagementModule } from './shared/management/management.module';
import { SharedModule } from './shared/shared.module';
import { VendorsModule } from './vendors/vendors.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The server: every business module plus logging and the management endpoints. */
@Module({
  imports: [
    SharedModule,
    loggingModule('stdout'),
    ManagementModule,
    HttpEdgeModule,
    VendorsModule,
    PartnersModule,
    LeadsModule,
    ContactsModule,
    MailModule,
    IdempotencyModule,
    WebhooksModule,
  ],
})
export class AppModule {}
