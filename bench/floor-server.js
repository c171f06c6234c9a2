#!/usr/bin/env node
// The engine floor (SQLite): how fast the hot paths (read a lead, create one, list page 0) could be
// if a request ran nothing but the SQL statements the service runs for it. The
// ceiling's bare NestJS 11 + Fastify application with its in-memory API-key check, plus
// better-sqlite3 on the service's own SQLite file (same pragmas, schema and statements, in the same
// order), and nothing else. A measuring aid, never the product (docs/performance.md "The engine
// floor" lists what it leaves out): the service must do all of that, so its rates stay below these.
//
//   GET /api/v1/vendors/leads/:id            the lead row packed as a JSON array with its isDuplicate
//       (D28), by primary key and vendor (GetLeadUseCase, findViewForVendor), on the read connection.
//   POST /api/v1/vendors/partners/:id/leads  the create's statements (CreateLeadUseCase and the
//       option check before it): the status option on the read connection; then, in the write
//       transaction, the partner connection, the email check (D27), the lead row, its maintained
//       count (rule 4), its CREATED history entry (X12), the new lead's isDuplicate (D28, leads and
//       contacts) and the vendor's webhook endpoints (X17). Units arriving in one turn of the
//       event loop share one BEGIN IMMEDIATE ... COMMIT, each in a SAVEPOINT of its own, as the
//       service's group commit does (FLOOR_SAVEPOINTS=0 drops the savepoints).
//   GET /api/v1/vendors/partners/:id/leads   page `page` of `perPage` (default 0 and 20), default
//       filters (ListLeadsUseCase): the partner connection, totalItems from lead_counts (rule 4),
//       the page's ids from the index, their rows packed by SQLite as JSON arrays with isDuplicate
//       (rules 5, 21, 23), in one read transaction.
//
// Run it on a database the service has made and seeded (the service stopped, or beside it), after
// `npm run build` (it folds case with the service's own foldCase, from dist/):
//   FLOOR_DATABASE=/path/app.sqlite FLOOR_API_KEY=prm_... FLOOR_VENDOR_ID=1 [PORT=0] \
//     node bench/floor-server.js
// prints {"port":N} on stdout once it listens; drive it with
//   npm run bench -- --only create-lead --url http://127.0.0.1:N --key prm_... --partner P --status S
// Bodies are taken as the benchmark sends them (firstName, lastName, emailAddress, companyName, status).
'use strict';
const Database = require('better-sqlite3');
const {
  LEAD_COLUMNS,
  VIEW_COLUMNS,
  loadFoldCase,
  newLeadRow,
  refuse,
  startFloorApp,
  view,
} = require('./lib/floor-app');

const foldCase = loadFoldCase('floor server');
const path = process.env.FLOOR_DATABASE;
const apiKey = process.env.FLOOR_API_KEY;
const vendorId = Number(process.env.FLOOR_VENDOR_ID);
const savepoints = process.env.FLOOR_SAVEPOINTS !== '0';
if (!path || !apiKey || !Number.isInteger(vendorId)) {
  process.stderr.write('floor server: set FLOOR_DATABASE, FLOOR_API_KEY and FLOOR_VENDOR_ID\n');
  process.exit(2);
}

// The service's pragmas (src/shared/infrastructure/database/data-source-options.ts).
const writer = new Database(path, { fileMustExist: true });
writer.pragma('journal_mode = WAL');
writer.pragma('foreign_keys = ON');
writer.pragma('synchronous = NORMAL');
writer.pragma('temp_store = MEMORY');
const reader = new Database(path, { readonly: true, fileMustExist: true });

const packedView = VIEW_COLUMNS.map((c) => `l.${c}`).join(', ');
// D28 as the leads repository writes it: another active lead, or another lead's contact, of the
// vendor has the lead's email (typeorm-lead-repository.ts isDuplicateSql, contact-duplicates.sql.ts).
const IS_DUPLICATE = `(EXISTS (SELECT 1 FROM leads o
    WHERE o.vendor_id = l.vendor_id AND o.email_normalized = l.email_normalized
      AND o.archived = 0 AND o.id <> l.id)
  OR EXISTS (SELECT 1 FROM contacts c
    WHERE c.vendor_id = l.vendor_id AND c.email_normalized = l.email_normalized AND c.lead_id <> l.id))`;
const CONNECTED = 'SELECT 1 AS connected FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?';
const w = {
  begin: writer.prepare('BEGIN IMMEDIATE'),
  commit: writer.prepare('COMMIT'),
  savepoint: writer.prepare('SAVEPOINT unit_of_work'),
  release: writer.prepare('RELEASE unit_of_work'),
  rollbackTo: writer.prepare('ROLLBACK TO unit_of_work'),
  connected: writer.prepare(CONNECTED).pluck(),
  emailTaken: writer
    .prepare(
      `SELECT 1 AS taken FROM leads
        WHERE vendor_id = ? AND partner_id = ? AND email_normalized = ? AND id <> ?`,
    )
    .pluck(),
  insert: writer.prepare(
    `INSERT INTO leads (${LEAD_COLUMNS.join(', ')}) VALUES (${LEAD_COLUMNS.map(() => '?').join(', ')})`,
  ),
  history: writer.prepare(
    `INSERT INTO lead_history (lead_id, at, action, approval_status_from, approval_status_to, archived,
       comment, changed_fields, api_key_prefix) VALUES (?, ?, 'CREATED', NULL, 'PENDING', 0, NULL, '', ?)`,
  ),
  count: writer.prepare(
    `INSERT INTO lead_counts (vendor_id, partner_id, archived, approval_status, slot, total)
       VALUES (?, ?, 0, 'PENDING', ?, 1)
       ON CONFLICT (vendor_id, partner_id, archived, approval_status, slot)
       DO UPDATE SET total = total + excluded.total`,
  ),
  endpoints: writer.prepare(
    'SELECT id, events FROM webhook_endpoints WHERE vendor_id = ? AND disabled_at IS NULL ORDER BY id',
  ),
  duplicates: writer
    .prepare(`SELECT l.id AS id FROM leads l WHERE l.vendor_id + 0 = ? AND l.id IN (?) AND ${IS_DUPLICATE}`)
    .pluck(),
};
const r = {
  begin: reader.prepare('BEGIN'),
  commit: reader.prepare('COMMIT'),
  option: reader.prepare(
    'SELECT id, vendor_id, kind, label FROM lead_options WHERE vendor_id = ? AND kind = ? AND id IN (?)',
  ),
  connected: reader.prepare(CONNECTED).pluck(),
  byId: reader
    .prepare(
      `SELECT json_array(${packedView}, ${IS_DUPLICATE}) FROM leads l WHERE l.id = ? AND l.vendor_id = ?`,
    )
    .pluck(),
  total: reader
    .prepare(
      'SELECT SUM(total) AS total FROM lead_counts WHERE vendor_id = ? AND partner_id = ? AND archived = ?',
    )
    .pluck(),
  pageIds: reader
    .prepare(
      `SELECT id FROM leads WHERE vendor_id = ? AND partner_id = ? AND archived = 0
         ORDER BY created_at DESC, id DESC LIMIT ?+0 OFFSET ?`,
    )
    .pluck(),
  byIds: new Map(),
};
function rowsByIds(count) {
  let statement = r.byIds.get(count);
  if (!statement) {
    statement = reader
      .prepare(
        `SELECT json_array(${packedView}, ${IS_DUPLICATE})
         FROM leads l WHERE l.id IN (${new Array(count).fill('?').join(', ')})`,
      )
      .pluck();
    r.byIds.set(count, statement);
  }
  return statement;
}

/** The create's statements for one lead, in the write transaction; throws `refuse(...)` for an answer other than 200. */
function createOne(partnerId, body) {
  if (!w.connected.get(vendorId, partnerId)) throw refuse(404, 'RESOURCE_NOT_FOUND');
  if (w.emailTaken.get(vendorId, partnerId, foldCase(String(body.emailAddress)), 0))
    throw refuse(400, 'DUPLICATE_ENTRY');
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  const row = newLeadRow(vendorId, partnerId, body, foldCase, now);
  const values = LEAD_COLUMNS.map((column) => row[column] ?? null);
  const id = Number(w.insert.run(values).lastInsertRowid);
  w.count.run(vendorId, partnerId, id % 16);
  w.history.run(id, now, apiKey.slice(0, 10));
  const isDuplicate = w.duplicates.get(vendorId, id) !== undefined;
  w.endpoints.all(vendorId);
  return view([id, ...values, isDuplicate]);
}

// Group commit: the first unit of a turn opens the transaction, the end of the turn commits it.
let batch = null;
function create(partnerId, body) {
  // the status option is checked first, on the read connection, as the service's validation does (D37)
  const status = body.status ?? null;
  if (status !== null && !r.option.get(vendorId, 'status', status)) {
    return Promise.reject(refuse(400, 'VALIDATION_FAILED'));
  }
  if (!batch) {
    w.begin.run();
    const waiting = (batch = []);
    setImmediate(() => {
      batch = null;
      w.commit.run();
      for (const settle of waiting) settle();
    });
  }
  let outcome;
  if (savepoints) w.savepoint.run();
  try {
    const lead = createOne(partnerId, body);
    outcome = { lead };
    if (savepoints) w.release.run();
  } catch (error) {
    if (savepoints) {
      w.rollbackTo.run();
      w.release.run();
    }
    outcome = { error };
  }
  return new Promise((resolve, reject) =>
    batch.push(() => (outcome.error ? reject(outcome.error) : resolve(outcome.lead))),
  );
}

/** Page `pageNumber` with default filters, as ListLeadsUseCase and the repository read it. */
function page(partnerId, pageNumber, perPage) {
  r.begin.run();
  try {
    if (!r.connected.get(vendorId, partnerId)) throw refuse(404, 'RESOURCE_NOT_FOUND');
    const totalItems = r.total.get(vendorId, partnerId, 0) ?? 0;
    let rows = [];
    if (totalItems > 0 && pageNumber * perPage < totalItems) {
      const ids = r.pageIds.all(vendorId, partnerId, perPage, pageNumber * perPage);
      rows =
        ids.length === 0
          ? []
          : rowsByIds(ids.length)
              .all(ids)
              .map((packed) => JSON.parse(packed));
      const position = new Map(ids.map((id, index) => [id, index]));
      rows.sort((a, b) => position.get(a[0]) - position.get(b[0]));
    }
    return { data: rows.map(view), page: pageNumber, perPage, totalItems };
  } finally {
    r.commit.run();
  }
}

startFloorApp('floor server', apiKey, {
  getLead: async (leadId) => {
    const packed = r.byId.get(leadId, vendorId);
    if (packed === undefined) throw refuse(404, 'RESOURCE_NOT_FOUND');
    return view(JSON.parse(packed));
  },
  list: async (partnerId, pageNumber, perPage) => page(partnerId, pageNumber, perPage),
  create,
  close: async () => {
    reader.close();
    writer.close();
  },
}).catch((error) => {
  process.stderr.write(`floor server: ${error.stack || error}\n`);
  process.exit(1);
});
