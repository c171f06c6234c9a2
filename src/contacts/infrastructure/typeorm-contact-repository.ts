import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isUniqueViolation } from '../../shared/infrastructure/database/database-engine';
import { EntitySql } from '../../shared/infrastructure/database/entity-sql';
import { SqlDatabase } from '../../shared/infrastructure/database/sql-database';
import { ContactRepository } from '../application/contact-repository';
import { Contact } from '../domain/contact';
import { ContactMapper } from './contact.mapper';
import { ContactOrmEntity } from './contact.orm-entity';

@Injectable()
export class TypeOrmContactRepository extends ContactRepository {
  private readonly sql: EntitySql<ContactOrmEntity>;

  constructor(
    private readonly db: SqlDatabase,
    dataSource: DataSource,
  ) {
    super();
    this.sql = new EntitySql(dataSource, ContactOrmEntity, 'c');
  }

  async findByLead(leadId: number): Promise<Contact | null> {
    const row = await this.db.one<ContactOrmEntity>(
      `SELECT ${this.sql.selectList} FROM contacts c WHERE c.lead_id = ?`,
      [leadId],
    );
    return row ? ContactMapper.toDomain(this.sql.hydrate(row)) : null;
  }

  async insertOnce(contact: Contact): Promise<Contact> {
    try {
      const { insertId } = await this.db.run(this.sql.insert, this.sql.values(ContactMapper.toRow(contact)));
      contact.identify(insertId);
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
