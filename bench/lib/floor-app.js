// What the two engine floors share (bench/floor-server.js on SQLite, bench/floor-server-mysql.js on
// MySQL/MariaDB): the ceiling's bare NestJS + Fastify application with its in-memory API-key check,
// the three routes the floors serve, the Lead of the API made from a row's values, the service's
// envelope and error shape, and the service's foldCase. Only the statements differ by engine.
'use strict';
require('reflect-metadata');
const { Body, Controller, Get, HttpCode, Module, Param, Post, Query } = require('@nestjs/common');
const { HttpException } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');
const { join } = require('node:path');

const NAMESPACE = '/api/v1/vendors/';

/** The service's foldCase (dist/shared/domain/text.js): the floors need `npm run build`. */
function loadFoldCase(name) {
  try {
    return require(join(__dirname, '..', '..', 'dist', 'shared', 'domain', 'text.js')).foldCase;
  } catch {
    process.stderr.write(`${name}: run \`npm run build\` first (it uses dist/shared/domain/text.js)\n`);
    process.exit(2);
  }
}

// The columns of leads in the entity's order (lead.orm-entity.ts), without the generated id: the
// INSERT the service's EntitySql writes, and (after the id) the SELECT list it reads.
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

/** The lead row the create writes (Lead.submit: PENDING, not archived, submitted by API). */
function newLeadRow(vendorId, partnerId, body, foldCase, now) {
  return {
    vendor_id: vendorId,
    partner_id: partnerId,
    first_name: body.firstName,
    first_name_normalized: foldCase(String(body.firstName)),
    last_name: body.lastName ?? null,
    email_address: body.emailAddress,
    email_normalized: foldCase(String(body.emailAddress)),
    company_name: body.companyName,
    status: body.status ?? null,
    approval_status: 'PENDING',
    archived: 0,
    submitted_by_type: 'API',
    created_at: now,
    updated_at: now,
  };
}

// The Lead of the API (docs/api.md), from VIEW_COLUMNS' values followed by isDuplicate: the stored
// columns less the vendor and the normalized keys, datetimes as ISO 8601 (SQLite's text or
// mysql2's Date), archived and isDuplicate as booleans.
const HIDDEN = new Set(['vendor_id', 'first_name_normalized', 'email_normalized']);
const camel = (column) => column.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
const SHOWN = VIEW_COLUMNS.map((column, index) => [camel(column), index]).filter(
  ([, index]) => !HIDDEN.has(VIEW_COLUMNS[index]),
);
const iso = (value) =>
  value === null ? null : value instanceof Date ? value.toISOString() : `${value.replace(' ', 'T')}Z`;
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

/** An answer other than 200 in the standard error shape, with the contract's code, without the field list. */
const refuse = (status, code) =>
  new HttpException(
    { success: false, message: code, status, errors: [], timestamp: new Date().toISOString() },
    status,
  );

// The service's envelope (docs/api.md, src/shared/http/envelope.ts), with each route's message.
const envelope = (message, data) => ({ success: true, message, data, timestamp: new Date().toISOString() });

/**
 * Starts the floor's application on PORT (0: a free one) and prints {"port":N} once it listens.
 * `floor` = { getLead(leadId), list(partnerId, page, perPage), create(partnerId, body), close() }:
 * each resolves to the route's data (a Lead, a page, a Lead) or rejects with `refuse(...)`.
 */
async function startFloorApp(name, apiKey, floor) {
  class FloorLeadsController {
    async get(id) {
      return envelope(null, await floor.getLead(Number(id)));
    }
  }
  class FloorPartnerLeadsController {
    async create(id, body) {
      return envelope('LEAD_CREATE_SUCCESSFUL', await floor.create(Number(id), body));
    }

    async list(id, query) {
      return envelope(
        null,
        await floor.list(Number(id), Number(query.page ?? 0), Number(query.perPage ?? 20)),
      );
    }
  }
  const decorate = (Class, prefix, routes) => {
    Reflect.decorate([Controller(prefix)], Class);
    for (const [method, decorators] of Object.entries(routes)) {
      const descriptor = Object.getOwnPropertyDescriptor(Class.prototype, method);
      Object.defineProperty(
        Class.prototype,
        method,
        Reflect.decorate(decorators, Class.prototype, method, descriptor),
      );
    }
  };
  decorate(FloorLeadsController, 'api/v1/vendors/leads', {
    get: [Get(':id'), (t, k) => Param('id')(t, k, 0)],
  });
  decorate(FloorPartnerLeadsController, 'api/v1/vendors/partners', {
    create: [Post(':id/leads'), HttpCode(200), (t, k) => Param('id')(t, k, 0), (t, k) => Body()(t, k, 1)],
    list: [Get(':id/leads'), (t, k) => Param('id')(t, k, 0), (t, k) => Query()(t, k, 1)],
  });
  class FloorModule {}
  Reflect.decorate(
    [Module({ controllers: [FloorLeadsController, FloorPartnerLeadsController] })],
    FloorModule,
  );

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
    app
      .close()
      .then(() => floor.close())
      .then(
        () => process.exit(0),
        (error) => {
          process.stderr.write(`${name}: ${error.stack || error}\n`);
          process.exit(1);
        },
      );
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

module.exports = {
  LEAD_COLUMNS,
  VIEW_COLUMNS,
  envelope,
  loadFoldCase,
  newLeadRow,
  refuse,
  startFloorApp,
  view,
};
