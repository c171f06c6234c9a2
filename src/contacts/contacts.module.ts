import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ContactRepository } from './application/contact-repository';
import { ContactOrmEntity } from './infrastructure/contact.orm-entity';
import { TypeOrmContactRepository } from './infrastructure/typeorm-contact-repository';

/** Contacts: created when a lead is approved (docs/api.md 10). No endpoint of its own (docs/api.md: not shown). */
@Module({
  imports: [TypeOrmModule.forFeature([ContactOrmEntity])],
  providers: [{ provide: ContactRepository, useClass: TypeOrmContactRepository }],
  exports: [ContactRepository],
})
export class ContactsModule {}
