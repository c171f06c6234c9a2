import type { QueryRunner } from 'typeorm';
import { dialectOf, keyType } from './sql-dialect';

const runnerOf = (type: string) => ({ connection: { options: { type } } }) as unknown as QueryRunner;

/**
 * The words a new table is written with (docs/architecture.md, "Schema: migrations and entities"):
 * on SQLite in the quoted form TypeORM reads back, on MySQL as the shipped migrations write them.
 */
describe('SqlDialect helpers for new tables', () => {
  it('writes the id, a foreign key and a fixed-length column quoted on SQLite', () => {
    const d = dialectOf(runnerOf('better-sqlite3'));
    expect(d.autoId()).toBe('"id" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL');
    expect(
      d.foreignKey('fk_leads_vendor_partner', ['vendor_id', 'partner_id'], 'vendor_partners', [
        'vendor_id',
        'partner_id',
      ]),
    ).toBe(
      'CONSTRAINT "fk_leads_vendor_partner" FOREIGN KEY ("vendor_id", "partner_id") REFERENCES "vendor_partners" ("vendor_id", "partner_id")',
    );
    expect(d.char(64)).toBe('VARCHAR(64)');
  });

  it('writes them as the shipped migrations do on MySQL/MariaDB', () => {
    const d = dialectOf(runnerOf('mysql'));
    expect(d.autoId('note_id')).toBe('note_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY');
    expect(d.foreignKey('fk_contacts_lead', ['lead_id'], 'leads', ['id'])).toBe(
      'CONSTRAINT fk_contacts_lead FOREIGN KEY (lead_id) REFERENCES leads (id)',
    );
    expect(d.char(64)).toBe('CHAR(64)');
    expect(dialectOf(runnerOf('mariadb')).engine).toBe('mysql');
  });

  it('types a new key column NO PAD binary, in the collation the server has (docs/architecture.md)', async () => {
    const server = (version: string) =>
      ({
        connection: { options: { type: 'mysql' } },
        query: () => Promise.resolve([{ version }]),
      }) as unknown as QueryRunner;
    expect(await keyType(runnerOf('better-sqlite3'))).toBe('VARCHAR(255)');
    expect(await keyType(server('10.11.9-MariaDB-0+deb12u1'))).toBe(
      'VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin',
    );
    expect(await keyType(server('8.4.3'))).toBe(
      'VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_0900_bin',
    );
  });
});
