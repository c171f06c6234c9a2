import { Injectable } from '@nestjs/common';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-errors';
import { ContactRepository } from '../application/contact-repository';
import { Contact } from '../domain/contact';
import { ContactMapper } from './contact.mapper';
import { ContactOrmEntity } from './contact.orm-entity';

@Injectable()
export class TypeOrmContactRepository extends ContactRepository {
  constructor(private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>) {
    super();
  }

  private get rows() {
    return this.txHost.tx.getRepository(ContactOrmEntity);
  }

  async findByLead(leadId: number): Promise<Contact | null> {
    const row = await this.rows.findOneBy({ leadId });
    return row ? ContactMapper.toDomain(row) : null;
  }

  async insertOnce(contact: Contact): Promise<Contact> {
    try {
      const result = await this.rows.insert(ContactMapper.toRow(contact));
      contact.identify(Number(result.identifiers[0]!.id));
      return contact;
    } catch (error) {
      // D32: UNIQUE(lead_id) refused a second contact; the statement alone failed (InnoDB and SQLite
      // both keep the transaction), and the committed winner is visible under READ COMMITTED.
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.findByLead(contact.leadId);
      if (!existing) throw error;
      return existing;
    }
  }
}
