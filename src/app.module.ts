import { Module } from '@nestjs/common';
import { ContactsModule } from './contacts';
import { IdempotencyModule } from './idempotency';
import { LeadsModule } from './leads';
import { MailModule } from './mail';
import { PartnersModule } from './partners';
import { HttpEdgeModule } from './shared/http/http-edge.module';
import { loggingModule } from './shared/logging.module';
import { ManagementModule } from './shared/management/management.module';
import { SharedModule } from './shared.module';
import { VendorsModule } from './vendors';
import { WebhooksModule } from './webhooks';

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
