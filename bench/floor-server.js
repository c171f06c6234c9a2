#!/usr/bin/env node
// The engine floor: how fast the two hot paths the ceiling leaves furthest behind (create and list
// page 0) could be if a request did nothing but the SQL the service runs for it. The ceiling's bare
// NestJS 11 + Fastify application with its in-memory API-key check, plus better-sqlite3 on the
// service's own SQLite file (same pragmas, same schema, same statements), and nothing else: no
// validation, no API-key lookup (D9), no Idempotency-Key, rate limit, log line, metrics, webhook
// events or request context. A measuring aid, never the product (docs/performance.md "The engine
// floor"): the service must do all of that, so its rates stay below these.
//
//   POST /api/v1/vendors/partners/:id/leads  the create's statements: the partner connection, the
//       email check (D27), the status option, the lead row, its CREATED history entry (X12), the
//       maintained count (rule 4), the isDuplicate check (D28). Units arriving in one turn of the
//       event loop share one BEGIN IMMEDIATE ... COMMIT, each in a SAVEPOINT of its own, as the
//       service's group commit does (FLOOR_SAVEPOINTS=0 drops the savepoints).
//   GET /api/v1/vendors/partners/:id/leads   page `page` of `perPage` (default 0 and 20), default
//       filters: the page's ids from the index, their rows packed by SQLite as JSON arrays with
//       isDuplicate (rules 5, 21, 23), totalItems from lead_counts (rule 4), in one read transaction.
//
// Run it on a database the service has made and seeded (the service stopped, or beside it):
//   FLOOR_DATABASE=/path/app.sqlite FLOOR_API_KEY=prm_... FLOOR_VENDOR_ID=1 [PORT=0] \
//     node bench/floor-server.js
// prints {"port":N} on stdout once it listens; drive it with
//   npm run bench -- --only create-lead --url http://127.0.0.1:N --key prm_... --partner P --status S
// Bodies are taken as the benchmark sends them (firstName, lastName, emailAddress, companyName, status).
'use strict';
require('reflect-metadata');
const {
  Body,
  Controller,
  Get,
  HttpCode,
  HttpException,
  Module,
  Param,
  Post,
  Query,
} = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const Database = require('better-sqlite3');

const NAMESPACE = '/api/v1/vendors/';
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

const LEAD_COLUMNS = [
  'vendor_id',
  'partner_id',
  'first_name',
  'first_name_normalized',
  'last_name',
  'email_address',
  'email_normalized',
  'phone_number',
  'linked_in_url',
  'company_name',
  'website_url',
  'company_size',
  'industry',
  'job_title',
  'city',
  'state',
  'country',
  'source',
  'status',
  'lead_age',
  'products_interested',
  'business_impact_metrics',
  'external_id',
  'approval_status',
  'archived',
  'reject_reason',
  'reject_comment',
  'last_active_at',
  'submitted_by_type',
  'created_at',
  'updated_at',
];
const VIEW_COLUMNS = ['id', ...LEAD_COLUMNS];
const w = {
  begin: writer.prepare('BEGIN IMMEDIATE'),
  commit: writer.prepare('COMMIT'),
  savepoint: writer.prepare('SAVEPOINT unit_of_work'),
  release: writer.prepare('RELEASE unit_of_work'),
  rollbackTo: writer.prepare('ROLLBACK TO unit_of_work'),
  connected: writer.prepare('SELECT 1 FROM vendor_partners WHERE vendor_id = ? AND partner_id = ?').pluck(),
  emailTaken: writer
    .prepare('SELECT 1 FROM leads WHERE vendor_id = ? AND partner_id = ? AND email_normalized = ?')
    .pluck(),
  option: writer
    .prepare("SELECT 1 FROM lead_options WHERE id = ? AND vendor_id = ? AND kind = 'status'")
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
       ON CONFLICT (vendor_id, partner_id, archived, approval_status, slot) DO UPDATE SET total = total + 1`,
  ),
  duplicate: writer
    .prepare(
      'SELECT 1 FROM leads WHERE vendor_id = ? AND email_normalized = ? AND archived = 0 AND id <> ? LIMIT 1',
    )
    .pluck(),
};
const r = {
  begin: reader.prepare('BEGIN'),
  commit: reader.prepare('COMMIT'),
  pageIds: reader
    .prepare(
      `SELECT id FROM leads WHERE vendor_id = ? AND partner_id = ? AND archived = 0
         ORDER BY created_at DESC, id DESC LIMIT ?+0 OFFSET ?`,
    )
    .pluck(),
  total: reader
    .prepare('SELECT SUM(total) FROM lead_counts WHERE vendor_id = ? AND partner_id = ? AND archived = 0')
    .pluck(),
  byIds: new Map(),
};
function rowsByIds(count) {
  let statement = r.byIds.get(count);
  if (!statement) {
    const columns = VIEW_COLUMNS.map((c) => `l.${c}`).join(', ');
    statement = reader
      .prepare(
        `SELECT json_array(${columns}, EXISTS (SELECT 1 FROM leads d WHERE d.vendor_id = l.vendor_id
           AND d.email_normalized = l.email_normalized AND d.archived = 0 AND d.id <> l.id))
         FROM leads l WHERE l.id IN (${new Array(count).fill('?').join(', ')})`,
      )
      .pluck();
    r.byIds.set(count, statement);
  }
  return statement;
}

// The Lead of the API (docs/api.md), in its order: the stored columns less the vendor and the
// normalized keys, datetimes as ISO 8601, archived as a boolean, and isDuplicate.
const HIDDEN = new Set(['vendor_id', 'first_name_normalized', 'email_normalized']);
const camel = (column) => column.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const SHOWN = VIEW_COLUMNS.map((column, index) => [camel(column), index]).filter(
  ([, index]) => !HIDDEN.has(VIEW_COLUMNS[index]),
);
const iso = (text) => (text === null ? null : `${text.replace(' ', 'T')}Z`);
function view(values) {
  const lead = {};
  for (const [field, index] of SHOWN) lead[field] = values[index];
  lead.archived = Boolean(lead.archived);
  lead.lastActiveAt = iso(lead.lastActiveAt);
  lead.createdAt = iso(lead.createdAt);
  lead.updatedAt = iso(lead.updatedAt);
  lead.isDuplicate = Boolean(values[VIEW_COLUMNS.length]);
  return lead;
}

/** An answer other than 200, with the contract's error code as its message. */
const refuse = (status, code) => new HttpException({ success: false, message: code, data: null }, status);

/** The create's statements for one lead; throws `refuse(...)` for an answer other than 200. */
function createOne(partnerId, body) {
  if (!w.connected.get(vendorId, partnerId)) throw refuse(404, 'RESOURCE_NOT_FOUND');
  const email = String(body.emailAddress).toLowerCase();
  if (w.emailTaken.get(vendorId, partnerId, email)) throw refuse(400, 'DUPLICATE_ENTRY');
  const status = body.status ?? null;
  if (status !== null && !w.option.get(status, vendorId)) throw refuse(400, 'VALIDATION_FAILED');
  const now = new Date().toISOString().replace('T', ' ').slice(0, 23);
  const row = {
    vendor_id: vendorId,
    partner_id: partnerId,
    first_name: body.firstName,
    first_name_normalized: String(body.firstName).toLowerCase(),
    last_name: body.lastName ?? null,
    email_address: body.emailAddress,
    email_normalized: email,
    company_name: body.companyName,
    status,
    approval_status: 'PENDING',
    archived: 0,
    submitted_by_type: 'API',
    created_at: now,
    updated_at: now,
  };
  const values = LEAD_COLUMNS.map((column) => row[column] ?? null);
  const id = Number(w.insert.run(values).lastInsertRowid);
  w.history.run(id, now, apiKey.slice(0, 10));
  w.count.run(vendorId, partnerId, id % 16);
  const isDuplicate = Boolean(w.duplicate.get(vendorId, email, id));
  return view([id, ...values, isDuplicate]);
}

// Group commit: the first unit of a turn opens the transaction, the end of the turn commits it.
let batch = null;
function create(partnerId, body) {
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

function page(partnerId, pageNumber, perPage) {
  r.begin.run();
  try {
    const ids = r.pageIds.all(vendorId, partnerId, perPage, pageNumber * perPage);
    const rows =
      ids.length === 0
        ? []
        : rowsByIds(ids.length)
            .all(ids)
            .map((packed) => JSON.parse(packed));
    const position = new Map(ids.map((id, index) => [id, index]));
    rows.sort((a, b) => position.get(a[0]) - position.get(b[0]));
    return {
      data: rows.map(view),
      page: pageNumber,
      perPage,
      totalItems: r.total.get(vendorId, partnerId) ?? 0,
    };
  } finally {
    r.commit.run();
  }
}

// The service's envelope (docs/api.md), timestamp included.
const envelope = (data) => ({ success: true, message: null, data, timestamp: new Date().toISOString() });

class FloorController {
  async create(id, body) {
    return envelope(await create(Number(id), body));
  }

  list(id, query) {
    return envelope(page(Number(id), Number(query.page ?? 0), Number(query.perPage ?? 20)));
  }
}
Reflect.decorate([Controller('api/v1/vendors/partners')], FloorController);
const routes = {
  create: [Post(':id/leads'), HttpCode(200), (t, k) => Param('id')(t, k, 0), (t, k) => Body()(t, k, 1)],
  list: [Get(':id/leads'), (t, k) => Param('id')(t, k, 0), (t, k) => Query()(t, k, 1)],
};
for (const [method, decorators] of Object.entries(routes)) {
  const descriptor = Object.getOwnPropertyDescriptor(FloorController.prototype, method);
  Object.defineProperty(
    FloorController.prototype,
    method,
    Reflect.decorate(decorators, FloorController.prototype, method, descriptor),
  );
}

class FloorModule {}
Reflect.decorate([Module({ controllers: [FloorController] })], FloorModule);

async function main() {
  const app = await NestFactory.create(FloorModule, new FastifyAdapter(), { logger: false });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith(NAMESPACE) || request.headers['x-api-key'] !== apiKey) {
      return reply.code(401).send({ success: false, message: 'INVALID_API_KEY', data: null });
    }
  });
  await app.listen({ port: Number(process.env.PORT || 0), host: process.env.HOST || '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: app.getHttpServer().address().port })}\n`);
  const stop = () =>
    app.close().then(() => {
      reader.close();
      writer.close();
      process.exit(0);
    });
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`floor server: ${error.stack || error}\n`);
  process.exit(1);
});
