/**
 * Produces the EXPLAIN output of docs/leads-indexes.md: creates a scratch MariaDB/MySQL database,
 * runs the real migrations, inserts a few thousand leads, calls the real TypeOrmLeadRepository
 * methods while recording the SQL they send, and EXPLAINs each recorded statement. Not a test.
 *
 *   npx tsc --outDir /tmp/lead-explain --module commonjs --target es2022 --experimentalDecorators \
 *     --emitDecoratorMetadata --skipLibCheck --esModuleInterop test/support/lead-explain.ts
 *   NODE_PATH=$PWD/node_modules MYSQL_URL=mysql://root@127.0.0.1:3306 \
 *     node /tmp/lead-explain/test/support/lead-explain.js
 */
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import * as mysql from 'mysql2/promise';
import type { TransactionHost } from '@nestjs-cls/transactional';
import type { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { AbstractLogger, DataSource, EntityManager, LogLevel, LogMessage } from 'typeorm';
import { parseDatabaseUrl } from '../../src/config/app-config';
import { LeadListQuery } from '../../src/leads/domain/lead-list-query';
import { LeadQueries } from '../../src/leads/infrastructure/leads.queries';
import { TypeOrmLeadRepository } from '../../src/leads/infrastructure/typeorm-lead-repository';
import { dataSourceOptions } from '../../src/shared/infrastructure/database/data-source-options';
import { EngineAwareDataSource } from '../../src/shared/infrastructure/database/engine-aware-data-source';
import { DatabaseDialect } from '../../src/shared/infrastructure/database/database-dialect';
import { entities, migrations } from '../../src/database';

const LEADS = 20000;
const PARTNERS = 200;
const ON_PARTNER_1 = 3000;

class Recorder extends AbstractLogger {
  recorded: { sql: string; parameters: unknown[] }[] = [];
  recording = false;
  override logQuery(query: string, parameters?: unknown[]): void {
    if (this.recording) this.recorded.push({ sql: query, parameters: parameters ?? [] });
  }
  protected writeLog(_level: LogLevel, _message: LogMessage | LogMessage[]): void {}
}

function table(rows: Record<string, unknown>[]): string {
  const columns = [
    'id',
    'select_type',
    'table',
    'type',
    'possible_keys',
    'key',
    'key_len',
    'ref',
    'rows',
    'Extra',
  ];
  const cells = rows.map((row) =>
    columns.map((c) => (row[c] === null || row[c] === undefined ? 'NULL' : String(row[c]))),
  );
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(columns), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...cells.map(line)].join(
    '\n',
  );
}

/** The statement as a reader wants it: the long select list shortened, parameters inlined. */
function shown(sql: string, parameters: unknown[]): string {
  let i = 0;
  const inlined = sql.replace(/\?/g, () => {
    const p = parameters[i++];
    // a Date is sent as UTC text by mysql2 (timezone 'Z')
    return typeof p === 'number'
      ? String(p)
      : `'${p instanceof Date ? p.toISOString().replace('T', ' ').replace('Z', '') : String(p)}'`;
  });
  return inlined.replace(
    /SELECT `(\w+)`\.`id` AS `\1_id`.*? FROM/s,
    (_all, alias: string) => `SELECT \`${alias}\`.\`id\` AS \`${alias}_id\`, ... (every column) FROM`,
  );
}

async function main(): Promise<void> {
  const base = new URL(process.env.MYSQL_URL ?? 'mysql://root@127.0.0.1:3306');
  const name = `prm_explain_${randomBytes(3).toString('hex')}`;
  const admin = await mysql.createConnection({
    host: base.hostname,
    port: Number(base.port || 3306),
    user: base.username || 'root',
    password: base.password,
  });
  await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const recorder = new Recorder();
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  const ds = new EngineAwareDataSource({
    ...dataSourceOptions(parseDatabaseUrl(url.href)),
    entities,
    migrations,
    logging: ['query'],
    logger: recorder,
  } as ConstructorParameters<typeof EngineAwareDataSource>[0]);
  try {
    await ds.initialize();
    await ds.runMigrations();
    await seed(ds);
    // Outside Nest, a stand-in for the TransactionHost: the repository and LeadQueries run their
    // statements on `tx`, here the data source's manager or a transaction's; the recorder sees each.
    const dialect = new DatabaseDialect(ds);
    const repositoryOn = (manager: EntityManager): TypeOrmLeadRepository => {
      const txHost = { tx: manager } as unknown as TransactionHost<TransactionalAdapterTypeOrm>;
      return new TypeOrmLeadRepository(txHost, dialect, new LeadQueries(txHost, dialect));
    };
    const repo = repositoryOn(ds.manager);
    const q = (o: Partial<LeadListQuery>): LeadListQuery => ({
      vendorId: 1,
      partnerId: 1,
      page: 0,
      perPage: 20,
      sortBy: 'createdAt',
      sortDirection: 'desc',
      statuses: [],
      sources: [],
      archived: false,
      ...o,
    });
    const cases: [string, () => Promise<unknown>][] = [
      ['Listing, defaults (createdAt desc, active)', () => repo.listForPartner(q({}))],
      ['Listing, deep page (page 100, perPage 20)', () => repo.listForPartner(q({ page: 100 }))],
      [
        'Listing, sortBy=updatedAt asc',
        () => repo.listForPartner(q({ sortBy: 'updatedAt', sortDirection: 'asc' })),
      ],
      ['Listing, sortBy=id desc', () => repo.listForPartner(q({ sortBy: 'id' }))],
      ['Listing, archived=true', () => repo.listForPartner(q({ archived: true }))],
      [
        'Listing, approvalStatus + status list',
        () => repo.listForPartner(q({ approvalStatus: 'PENDING', statuses: [1, 2] })),
      ],
      ['Listing, keyword', () => repo.listForPartner(q({ keyword: 'ann' }))],
      [
        'Listing, createdAtAfter/createdAtBefore',
        () =>
          repo.listForPartner(
            q({
              createdFrom: new Date('2026-03-01T00:00:00Z'),
              createdUntil: new Date('2026-03-03T00:00:00Z'),
            }),
          ),
      ],
      [
        'isDuplicate for a page (20 ids)',
        () =>
          repo.duplicatesAmong(
            1,
            Array.from({ length: 20 }, (_, i) => i * 7 + 1),
          ),
      ],
      ['Duplicate check on create/replace/update', () => repo.emailTaken(1, 1, 'lead42@example.test', 5)],
      [
        'Lock a lead for approve/reject/archive/replace/update',
        () => ds.transaction((tx) => repositoryOn(tx).lockForVendor(42, 1)),
      ],
      ['Get a lead', () => repo.findForVendor(42, 1)],
    ];
    const [version] = (await ds.query('SELECT VERSION() AS v')) as { v: string }[];
    console.log(
      `Server: ${version!.v}; ${LEADS} leads over ${PARTNERS} partners and 2 vendors, ${ON_PARTNER_1} on (vendor 1, partner 1).\n`,
    );
    for (const [title, run] of cases) {
      recorder.recorded = [];
      recorder.recording = true;
      await run();
      recorder.recording = false;
      console.log(`### ${title}\n`);
      for (const { sql, parameters } of recorder.recorded.filter((r) => /^\s*SELECT/i.test(r.sql))) {
        const plan = (await ds.query(`EXPLAIN ${sql}`, parameters)) as Record<string, unknown>[];
        console.log('```sql\n' + shown(sql, parameters) + '\n```\n```\n' + table(plan) + '\n```\n');
      }
    }
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await admin.end();
  }
}

/** A tenth of the leads belong to vendor 2; vendor 1 has 2,700 on partner 1 (2,430 active), the rest spread; approved leads have contacts. */
async function seed(ds: DataSource): Promise<void> {
  const at = (d: Date) => d.toISOString().replace('T', ' ').replace('Z', '');
  const now = at(new Date('2026-01-01T00:00:00Z'));
  await ds.query(`INSERT INTO vendors (name, created_at) VALUES ('A', ?), ('B', ?)`, [now, now]);
  await ds.query(
    `INSERT INTO lead_options (vendor_id, kind, label, created_at) VALUES (1, 'status', 'Hot', ?), (1, 'status', 'Cold', ?), (1, 'source', 'Web', ?)`,
    [now, now, now],
  );
  for (let p = 1; p <= PARTNERS; p++) {
    await ds.query(
      `INSERT INTO partners (company_name, contact_name, contact_email_address, created_at) VALUES (?, 'c', ?, ?)`,
      [`P${p}`, `p${p}@x.test`, now],
    );
    for (const vendor of p <= 5 ? [1, 2] : [1]) {
      await ds.query(
        `INSERT INTO vendor_partners (vendor_id, partner_id, created_at, partner_created_at, company_name_normalized,
            contact_email_normalized) VALUES (?, ?, ?, ?, ?, ?)`,
        [vendor, p, now, now, `p${p}`, `p${p}@x.test`],
      );
    }
  }
  const names = ['Ann', 'Anna', 'Bob', 'Carla', 'Dmitri', 'Eve', 'Farah', 'Gus'];
  const statuses = ['PENDING', 'PENDING', 'APPROVED', 'REJECTED'];
  for (let start = 0; start < LEADS; start += 500) {
    const rows: unknown[] = [];
    const values: string[] = [];
    for (let i = start; i < Math.min(LEADS, start + 500); i++) {
      const vendor = i % 10 === 9 ? 2 : 1;
      const partner = vendor === 2 ? (i % 5) + 1 : i < ON_PARTNER_1 ? 1 : (i % (PARTNERS - 1)) + 2;
      const first = `${names[i % names.length]}${i}`;
      const email = `lead${i}@example.test`;
      const created = at(new Date(Date.parse('2026-02-01T00:00:00Z') + i * 1_000_000));
      values.push('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      rows.push(
        vendor,
        partner,
        first,
        first.toLowerCase(),
        email,
        email,
        'Co',
        (i % 3) + 1,
        i % 10 === 0 ? 1 : 0,
        statuses[i % 4],
        'API',
        created,
        created,
        i % 2 ? 1 : null,
      );
    }
    await ds.query(
      `INSERT INTO leads (vendor_id, partner_id, first_name, first_name_normalized, email_address, email_normalized, company_name, status, archived, approval_status, submitted_by_type, created_at, updated_at, source) VALUES ${values.join(', ')}`,
      rows,
    );
  }
  await ds.query(
    `INSERT INTO contacts (vendor_id, partner_id, lead_id, first_name, email_address, email_normalized, company_name, created_at)
     SELECT vendor_id, partner_id, id, first_name, email_address, email_normalized, company_name, created_at FROM leads WHERE approval_status = 'APPROVED'`,
  );
  // the leads were inserted after the migrations: count them as migration 420 does
  await ds.query(`INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
    SELECT vendor_id, partner_id, archived, approval_status, id % 16, COUNT(*)
      FROM leads GROUP BY vendor_id, partner_id, archived, approval_status, id % 16`);
  await ds.query('ANALYZE TABLE leads, contacts, lead_counts');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
