#!/usr/bin/env node
// The engine floor on MySQL/MariaDB: how fast the hot paths (read a lead, create one, list page 0)
// could be if a request ran nothing but the SQL statements the service runs for it on this engine.
// The ceiling's bare NestJS + Fastify application with its in-memory API-key check
// (bench/lib/floor-app.js, shared with the SQLite floor, bench/floor-server.js), plus a mysql2
// promise pool of 10 connections on the service's own database (the service's main pool:
// MYSQL_POOL_SIZE, and its connection options: UTC, utf8mb4_unicode_ci, ids as numbers), every
// statement a prepared one (`execute`), and nothing else.
// A measuring aid, never the product (docs/performance.md "The engine floor").
//
//   GET /api/v1/vendors/leads/:id            the lead's columns and its isDuplicate (D28, other
//       active leads by FORCE INDEX (ix_leads_vendor_email), other leads' contacts) by primary key
//       and vendor: findViewForVendor's one statement, on the pool.
//   GET /api/v1/vendors/partners/:id/leads   page `page` of `perPage` (default 0 and 20), default
//       filters, as ListLeadsUseCase and the repository run it on MySQL, each statement on the pool
//       (no transaction, as UnitOfWork.read on MySQL): the partner connection (D25), totalItems
//       from lead_counts (rule 4), the page's ids from the index joined to their rows in one
//       statement, then D28 for the page's ids in one more (duplicatesAmong).
//   POST /api/v1/vendors/partners/:id/leads  the status option on the pool first (D15, D37); then
//       one READ COMMITTED transaction on a connection of the pool (SET TRANSACTION ISOLATION LEVEL,
//       START TRANSACTION, as TypeORM opens it): the partner connection, the email check (D27), the
//       lead row, its maintained count (INSERT ... ON DUPLICATE KEY UPDATE, rule 4), its CREATED
//       history entry (X12), the new lead's isDuplicate (D28) and the vendor's webhook endpoints
//       (X17), COMMIT. A deadlock victim runs again from the start, up to 4 times, as the
//       service's UnitOfWork does; a duplicate email on the INSERT is DUPLICATE_ENTRY.
//
// Run it on a database the service has made and seeded (beside the service or not), after
// `npm run build` (it folds case with the service's own foldCase, from dist/):
//   FLOOR_MYSQL_URL=mysql://root@127.0.0.1:3306/prm FLOOR_API_KEY=prm_... FLOOR_VENDOR_ID=1 [PORT=0] \
//     node bench/floor-server-mysql.js
// prints {"port":N} on stdout once it listens. Bodies are taken as the benchmark sends them
// (firstName, lastName, emailAddress, companyName, status).
'use strict';
const mysql = require('mysql2/promise');
const {
  LEAD_COLUMNS,
  VIEW_COLUMNS,
  loadFoldCase,
  newLeadRow,
  refuse,
  startFloorApp,
  view,
} = require('./lib/floor-app');

const foldCase = loadFoldCase('floor server (mysql)');
const url = process.env.FLOOR_MYSQL_URL;
const apiKey = process.env.FLOOR_API_KEY;
const vendorId = Number(process.env.FLOOR_VENDOR_ID);
if (!url || !apiKey || !Number.isInteger(vendorId)) {
  process.stderr.write('floor server (mysql): set FLOOR_MYSQL_URL, FLOOR_API_KEY and FLOOR_VENDOR_ID\n');
  process.exit(2);
}

// The service's mysql2 options (data-source-options.ts, mysqlConnectionOptions) and pool size.
const address = new URL(url);
const pool = mysql.createPool({
  host: address.hostname,
  port: Number(address.port || 3306),
  user: decodeURIComponent(address.username || 'root'),
  password: decodeURIComponent(address.password || ''),
  database: decodeURIComponent(address.pathname.slice(1)),
  charset: 'utf8mb4_unicode_ci',
  timezone: 'Z',
  supportBigNumbers: true,
  bigNumberStrings: false,
  dateStrings: false,
  enableKeepAlive: true,
  connectionLimit: 10,
  waitForConnections: true,
});

const DEADLOCK_RETRIES = 4;
const columnList = VIEW_COLUMNS.map((c) => `l.${c}`).join(', ');
// D28 as the leads repository writes it on MySQL (typeorm-lead-repository.ts isDuplicateSql,
// contact-duplicates.sql.ts), with the index the repository forces for the other leads.
const IS_DUPLICATE = `(EXISTS (SELECT 1 FROM leads o FORCE INDEX (ix_leads_vendor_email)
    WHERE o.vendor_id = l.vendor_id AND o.email_normalized = l.email_normalized
      AND o.archived = 0 AND o.id <> l.id)
  OR EXISTS (SELECT 1 FROM contacts c
    WHERE c.vendor_id = l.vendor_id AND c.email_normalized = l.email_normalized AND c.lead_id <> l.id))`;
const placeholders = (count) => new Array(count).fill('?').join(', ');
const duplicatesSql = (count) =>
  `SELECT l.id AS id FROM leads l WHERE l.vendor_id + 0 = ? AND l.id IN (${placeholders(count)}) AND ${IS_DUPLICATE}`;
const SQL = {
  // The service asks TypeORM's existsBy on vendor_partners' primary key; the same question, plainly.
  connected: 'SELECT 1 AS connected FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?',
  option:
    'SELECT id, vendor_id, kind, label FROM lead_options WHERE vendor_id = ? AND kind = ? AND id IN (?)',
  viewById: `SELECT ${columnList}, ${IS_DUPLICATE} FROM leads l WHERE l.id = ? AND l.vendor_id = ?`,
  total: `SELECT SUM(total) AS total FROM lead_counts
            WHERE vendor_id = ? AND partner_id = ? AND archived = ?`,
  // pageQuery: the ids from the listing's index alone, then their rows (EntitySql's selectList)
  page: `SELECT ${VIEW_COLUMNS.map((c) => `l.${c}`).join(', ')} FROM (SELECT f.id FROM leads f
           WHERE f.vendor_id = ? AND f.partner_id = ? AND f.archived = ?
           ORDER BY f.created_at DESC, f.id DESC LIMIT ? OFFSET ?) page
         JOIN leads l ON l.id = page.id ORDER BY l.created_at DESC, l.id DESC`,
  emailTaken: `SELECT 1 AS taken FROM leads
        WHERE vendor_id = ? AND partner_id = ? AND email_normalized = ? AND id <> ?`,
  insert: `INSERT INTO leads (${LEAD_COLUMNS.join(', ')}) VALUES (${placeholders(LEAD_COLUMNS.length)})`,
  count: `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
      VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE total = total + VALUES(total)`,
  history: `INSERT INTO lead_history (lead_id, at, action, approval_status_from, approval_status_to, archived, comment, changed_fields, api_key_prefix) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  duplicate: duplicatesSql(1),
  endpoints:
    'SELECT id, events FROM webhook_endpoints WHERE vendor_id = ? AND disabled_at IS NULL ORDER BY id',
};
const duplicatesByCount = [];
const asArrays = (sql) => ({ sql, rowsAsArray: true });

async function getLead(leadId) {
  const [[row]] = await pool.execute(asArrays(SQL.viewById), [leadId, vendorId]);
  if (!row) throw refuse(404, 'RESOURCE_NOT_FOUND');
  return view(row);
}

async function list(partnerId, pageNumber, perPage) {
  const [connected] = await pool.execute(SQL.connected, [vendorId, partnerId]);
  if (connected.length === 0) throw refuse(404, 'RESOURCE_NOT_FOUND');
  const [[counted]] = await pool.execute(SQL.total, [vendorId, partnerId, 0]);
  const totalItems = Number(counted?.total ?? 0);
  const answer = { data: [], page: pageNumber, perPage, totalItems };
  if (totalItems === 0 || pageNumber * perPage >= totalItems) return answer;
  const [rows] = await pool.execute(asArrays(SQL.page), [
    vendorId,
    partnerId,
    0,
    perPage,
    pageNumber * perPage,
  ]);
  if (rows.length === 0) return answer;
  const ids = rows.map((row) => row[0]);
  const sql = (duplicatesByCount[ids.length] ??= duplicatesSql(ids.length));
  const [found] = await pool.execute(sql, [vendorId, ...ids]);
  const duplicates = new Set(found.map((row) => Number(row.id)));
  answer.data = rows.map((row) => view([...row, duplicates.has(row[0])]));
  return answer;
}

/** The create's statements on `connection`, inside its transaction; throws `refuse(...)` for an answer other than 200. */
async function createIn(connection, partnerId, body) {
  const [connected] = await connection.execute(SQL.connected, [vendorId, partnerId]);
  if (connected.length === 0) throw refuse(404, 'RESOURCE_NOT_FOUND');
  const email = foldCase(String(body.emailAddress));
  const [taken] = await connection.execute(SQL.emailTaken, [vendorId, partnerId, email, 0]);
  if (taken.length > 0) throw refuse(400, 'DUPLICATE_ENTRY');
  const now = new Date();
  const row = newLeadRow(vendorId, partnerId, body, foldCase, now);
  const values = LEAD_COLUMNS.map((column) => row[column] ?? null);
  let id;
  try {
    id = Number((await connection.execute(SQL.insert, values))[0].insertId);
  } catch (error) {
    // D27: ux_leads_partner_email decides when two creates race
    if (error.errno === 1062) throw refuse(400, 'DUPLICATE_ENTRY');
    throw error;
  }
  await connection.execute(SQL.count, [vendorId, partnerId, 0, 'PENDING', id % 16, 1]);
  await connection.execute(SQL.history, [
    id,
    now,
    'CREATED',
    null,
    'PENDING',
    0,
    null,
    '',
    apiKey.slice(0, 10),
  ]);
  const [duplicate] = await connection.execute(SQL.duplicate, [vendorId, id]);
  await connection.execute(SQL.endpoints, [vendorId]);
  return view([id, ...values, duplicate.length > 0]);
}

async function create(partnerId, body) {
  // the status option is checked first, on the pool, as the service's validation does (D37)
  const status = body.status ?? null;
  if (status !== null) {
    const [found] = await pool.execute(SQL.option, [vendorId, 'status', status]);
    if (found.length === 0) throw refuse(400, 'VALIDATION_FAILED');
  }
  for (let attempt = 0; ; attempt++) {
    const connection = await pool.getConnection();
    try {
      await connection.query('SET TRANSACTION ISOLATION LEVEL READ COMMITTED');
      await connection.query('START TRANSACTION');
      let lead;
      try {
        lead = await createIn(connection, partnerId, body);
      } catch (error) {
        await connection.query('ROLLBACK');
        throw error;
      }
      await connection.query('COMMIT');
      return lead;
    } catch (error) {
      // ER_LOCK_DEADLOCK: the victim wrote nothing; run it again, as the service's UnitOfWork does
      if (error.errno !== 1213 || attempt >= DEADLOCK_RETRIES) throw error;
    } finally {
      connection.release();
    }
  }
}

startFloorApp('floor server (mysql)', apiKey, { getLead, list, create, close: () => pool.end() }).catch(
  (error) => {
    process.stderr.write(`floor server (mysql): ${error.stack || error}\n`);
    process.exit(1);
  },
);
