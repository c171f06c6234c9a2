#!/usr/bin/env node
// Load benchmark of the built service (`npm run bench`; see bench/README.md).
//
// Starts the service (node dist/main.js) on a fresh database (a temporary SQLite file, or a database
// of its own on a MySQL/MariaDB server with --engine mysql) and, beside it, the ceiling server
// (bench/ceiling-server.js: a bare NestJS + Fastify app with an in-memory API-key check). Seeds a
// partner with 20,000 leads over the HTTP API, drives every scenario with autocannon, and reports
// each scenario's req/s as a ratio of the ceiling's req/s measured in the same run at the same
// number of connections and, for the scenarios the engine floor serves (bench/floor-server.js on
// SQLite, bench/floor-server-mysql.js on MySQL: the service's own statements behind a bare route),
// as a share of the floor's req/s measured right after it, plus latency percentiles, unexpected statuses, the flatness of page 0
// between a 10,000-lead and a 1,000,000-lead partner (seeded with `node dist/cli.js leads:import`)
// and the service's peak RSS. Writes a markdown report to a temporary file (with --write, to
// bench/results-<engine>.md) and a summary to stderr.
'use strict';
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { mkdtempSync, rmSync, writeFileSync } = require('node:fs');
const os = require('node:os');
const { join, relative } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { parseArgs } = require('node:util');
const { openEngine, median } = require('./lib/engine');
const { runScenario } = require('./lib/load');
const { closeAgent, expectStatus, request } = require('./lib/http');
const {
  ROOT,
  runCli,
  cliHelp,
  startService,
  startCeiling,
  startFloor,
  stopAll,
  peakRss,
} = require('./lib/processes');
const { fmt, markdown, summary, summaryLine } = require('./lib/report');
const seed = require('./lib/seed');

const NS = '/api/v1/vendors';
const WRONG_KEY = `prm_${'x'.repeat(43)}`;

const USAGE = `usage: npm run bench -- [options]

  --engine sqlite|mysql   database engine (default sqlite, or BENCH_ENGINE; BENCH_MYSQL_URL set means mysql)
  --write                 write bench/results-<engine>.md instead of a temporary file
  --only <scenario,...>   run these scenarios only, each after a ceiling run at the same connection count
  --url <url> --key <key> with --only: drive an already running service instead of starting one
  --partner <id>          with --url: use this partner's leads instead of seeding a new partner
  --status <id>           with --url: a status option id of the key's vendor (seeded leads, filtered list)
  --pid <pid>             with --url: the service's pid, to report its peak RSS
  --connections <n>       connections (default 50, or BENCH_CONNECTIONS)
  --seconds <s>           measured seconds per scenario (default 10, or BENCH_SECONDS)
  --no-ceiling            with --only: skip the ceiling run (no ratio)
  --no-floor              skip the engine floor runs (no share of the floor); never run with --url

scenarios: ${'SCENARIOS'}
environment: BENCH_CONNECTIONS, BENCH_LATENCY_CONNECTIONS (10), BENCH_SECONDS (10), BENCH_WARMUP (2),
  BENCH_SEED_LEADS (20000), BENCH_LARGE_LEADS (1000000; 0 skips the flatness section),
  BENCH_FLAT_BASE_LEADS (10000), BENCH_APPROVE_POOL (1000), BENCH_MAX_UNEXPECTED (0.001),
  BENCH_MYSQL_URL / MYSQL_URL (mysql://root@127.0.0.1:3306/test)
`;

function number(value, fallback, name) {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new UsageError(`${name} must be a non-negative number, got ${value}`);
  return n;
}

class UsageError extends Error {}

function readOptions() {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    allowPositionals: false,
    options: {
      engine: { type: 'string' },
      write: { type: 'boolean' },
      only: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      partner: { type: 'string' },
      status: { type: 'string' },
      pid: { type: 'string' },
      connections: { type: 'string' },
      seconds: { type: 'string' },
      'no-ceiling': { type: 'boolean' },
      'no-floor': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const env = process.env;
  const engine = values.engine || env.BENCH_ENGINE || (env.BENCH_MYSQL_URL ? 'mysql' : 'sqlite');
  if (engine !== 'sqlite' && engine !== 'mysql')
    throw new UsageError(`--engine must be sqlite or mysql, got ${engine}`);
  const seconds = number(values.seconds ?? env.BENCH_SECONDS, 10, 'BENCH_SECONDS');
  const o = {
    help: values.help,
    engine,
    write: Boolean(values.write),
    only: values.only,
    onlyNames: values.only ? values.only.split(',').map((name) => name.trim()) : [],
    url: values.url && values.url.replace(/\/+$/, ''),
    key: values.key,
    partner: values.partner && Number(values.partner),
    status: values.status && Number(values.status),
    pid: values.pid && Number(values.pid),
    noCeiling: Boolean(values['no-ceiling']),
    noFloor: Boolean(values['no-floor']),
    connections: number(values.connections ?? env.BENCH_CONNECTIONS, 50, 'BENCH_CONNECTIONS'),
    latencyConnections: number(env.BENCH_LATENCY_CONNECTIONS, 10, 'BENCH_LATENCY_CONNECTIONS'),
    seconds,
    warmup: number(env.BENCH_WARMUP, Math.min(2, Math.max(1, Math.round(seconds / 5))), 'BENCH_WARMUP'),
    seedLeads: number(env.BENCH_SEED_LEADS, 20000, 'BENCH_SEED_LEADS'),
    largeLeads: number(env.BENCH_LARGE_LEADS, 1000000, 'BENCH_LARGE_LEADS'),
    flatBaseLeads: number(env.BENCH_FLAT_BASE_LEADS, 10000, 'BENCH_FLAT_BASE_LEADS'),
    approvePool: number(env.BENCH_APPROVE_POOL, 1000, 'BENCH_APPROVE_POOL'),
    maxUnexpected: number(env.BENCH_MAX_UNEXPECTED, 0.001, 'BENCH_MAX_UNEXPECTED'),
    mysqlUrl: env.BENCH_MYSQL_URL || env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/test',
  };
  if (o.url && !o.only) throw new UsageError('--url needs --only <scenario>');
  if (o.url && !o.key) throw new UsageError('--url needs --key <apiKey>');
  if (o.write && o.only) throw new UsageError('--write is for full runs, not --only');
  if ((o.partner || o.status || o.pid) && !o.url)
    throw new UsageError('--partner, --status and --pid go with --url');
  if (o.connections < 1 || o.seconds <= 0) throw new UsageError('connections and seconds must be positive');
  return o;
}

// ---------------------------------------------------------------------------------------------
// Scenarios. Each is { name, title, section, expected, method, headers, body, setupRequest, needs }
// built from the seeded data in `ctx`; `target: 'ceiling'` ones run against the ceiling server.

/** setupRequest that sends each request to the next of `ids` (shared by all connections). */
function rotating(ids, pathOf) {
  let i = 0;
  return (req) => ({ ...req, path: pathOf(ids[i++ % ids.length]) });
}

function scenarioCatalog(ctx) {
  const key = () => ({ 'X-API-KEY': ctx.key });
  const main = () => ctx.main;
  const ceilingIds = Array.from({ length: 20000 }, (_, i) => i + 1);
  const leads = (p) => `${NS}/partners/${p}/leads`;
  const list = [
    {
      name: 'ceiling',
      title: 'ceiling: bare Nest + Fastify, in-memory key check, GET /ceiling/{id}',
      target: 'ceiling',
      needs: [],
      expected: 200,
      headers: key,
      setupRequest: () => rotating(ceilingIds, (id) => `${NS}/ceiling/${id}`),
    },
    {
      name: 'get-lead',
      title: 'GET /leads/{id} (rotating over the seeded leads)',
      floor: true,
      needs: ['main'],
      expected: 200,
      headers: key,
      setupRequest: () => rotating(main().ids, (id) => `${NS}/leads/${id}`),
    },
    {
      name: 'list',
      title: () => `GET /partners/{id}/leads: page 0, 20 of ${fmt.int(main().total)}`,
      floor: true,
      needs: ['main'],
      expected: 200,
      headers: key,
      path: () => leads(main().partnerId),
    },
    {
      name: 'list-filtered',
      title: () =>
        `GET /partners/{id}/leads?approvalStatus=PENDING${main().status ? '&status={id}' : ''}&keyword=seed1 (${fmt.int(main().filteredTotal)} match)`,
      needs: ['main'],
      expected: 200,
      headers: key,
      path: () =>
        `${leads(main().partnerId)}?approvalStatus=PENDING${main().status ? `&status=${main().status}` : ''}&keyword=seed1`,
    },
    {
      name: 'list-last-page',
      title: () => `GET /partners/{id}/leads?perPage=100&page=${main().lastPage} (last page)`,
      needs: ['main'],
      expected: 200,
      headers: key,
      path: () => `${leads(main().partnerId)}?perPage=100&page=${main().lastPage}`,
    },
    {
      name: 'create-lead',
      title: 'POST /partners/{id}/leads (create, a unique email each)',
      floor: true,
      needs: ['main'],
      expected: 200,
      method: 'POST',
      headers: () => ({ ...key(), 'Content-Type': 'application/json' }),
      setupRequest: () => {
        let i = 0;
        const partner = main().partnerId;
        const run = `${ctx.run}${randomBytes(2).toString('hex')}`;
        return (req) => ({
          ...req,
          path: leads(partner),
          body: JSON.stringify({
            firstName: `Load${i}`,
            lastName: 'Bench',
            emailAddress: `load${i++}.${run}@bench.example`,
            companyName: 'Load Co',
            status: main().status || null,
          }),
        });
      },
    },
    {
      name: 'approve',
      title: () =>
        `PUT /leads/{id}/approve (over ${fmt.int(main().approveIds.length)} pending leads: first approve, then retries)`,
      needs: ['main', 'approve'],
      expected: 200,
      method: 'PUT',
      headers: key,
      // the warm-up approves other leads than the measured run, which starts on pending leads
      describe: (row) => {
        const first = Math.min(main().approveIds.length, row.requests);
        return `${row.title}: ${fmt.int(first)} first approvals, ${fmt.int(row.requests - first)} retries`;
      },
      setupRequest: (phase) =>
        rotating(
          phase === 'warmup' ? main().approveWarmupIds : main().approveIds,
          (id) => `${NS}/leads/${id}/approve`,
        ),
    },
    {
      name: 'wrong-key',
      title: 'GET /leads/{id} with a wrong API key (401)',
      needs: ['main'],
      expected: 401,
      headers: () => ({ 'X-API-KEY': WRONG_KEY }),
      setupRequest: () => rotating(main().ids, (id) => `${NS}/leads/${id}`),
    },
  ];
  for (const [size, label] of [
    ['base', () => fmt.int(ctx.flat.base.count)],
    ['large', () => fmt.int(ctx.flat.large.count)],
  ]) {
    list.push(
      {
        name: `flat-${size}`,
        title: () => `GET /partners/{id}/leads: page 0 of ${label()} (imported)`,
        needs: ['flat'],
        expected: 200,
        headers: key,
        path: () => leads(ctx.flat[size].partnerId),
      },
      {
        name: `flat-${size}-pending`,
        title: () => `GET /partners/{id}/leads?approvalStatus=PENDING: page 0 of ${label()} (imported)`,
        needs: ['flat'],
        expected: 200,
        headers: key,
        path: () => `${leads(ctx.flat[size].partnerId)}?approvalStatus=PENDING`,
      },
    );
  }
  return list;
}

/**
 * Waits until the server has worked off the requests autocannon abandoned at the end of a run (it
 * closes its connections, but the server still answers what it had read), so that they do not load
 * the next run: one request to an unknown route must come back.
 */
async function settle(ctx, url) {
  const started = Date.now();
  try {
    await request('GET', `${url}${NS}/nothing`, { headers: { 'X-API-KEY': ctx.key }, timeoutMs: 120000 });
  } catch {
    // a server that does not answer shows up in the next run
  }
  const waited = Date.now() - started;
  if (waited > 1000)
    process.stderr.write(`  (waited ${(waited / 1000).toFixed(1)} s for the server to settle)\n`);
}

/**
 * Runs one scenario with fresh request state; returns its row with `ratio` to `ceilingRow`. A row
 * with `record: false` (a paired ceiling or floor run) is returned but not reported as a scenario.
 * `onFloor`: the scenario's requests go to the engine floor instead of the service.
 */
async function run(ctx, scenario, connections, ceilingRow, { record = true, onFloor = false } = {}) {
  const makeSetup = scenario.setupRequest;
  let phase = 'warmup';
  const live = {
    name: scenario.name,
    title: typeof scenario.title === 'function' ? scenario.title() : scenario.title,
    expected: scenario.expected,
    method: scenario.method,
    headers: scenario.headers(),
    path: typeof scenario.path === 'function' ? scenario.path() : scenario.path,
    setupRequest: undefined,
    beforeWarmup() {
      if (makeSetup) live.setupRequest = makeSetup(phase);
    },
    beforeRun() {
      phase = 'run';
      if (makeSetup) live.setupRequest = makeSetup(phase);
    },
  };
  const url = onFloor ? ctx.floor.url : scenario.target === 'ceiling' ? ctx.ceiling.url : ctx.api.url;
  const tty = process.stderr.isTTY;
  if (tty) process.stderr.write(`${scenario.name}@${connections} ...`);
  const row = await runScenario(url, live, {
    connections,
    seconds: ctx.o.seconds,
    warmup: ctx.o.warmup,
    settle: () => settle(ctx, url),
  });
  row.ratio = ceilingRow ? row.rps / ceilingRow.rps : NaN;
  row.ceilingRps = ceilingRow ? ceilingRow.rps : NaN;
  if (scenario.describe) row.title = scenario.describe(row);
  const paired = onFloor ? '  (floor) ' : record ? '' : '  (paired) ';
  process.stderr.write(`${tty ? '\r\x1b[K' : ''}${paired}${summaryLine(row)}\n`);
  if (record) ctx.rows.push(row);
  if (ctx.floor && ctx.floor.exited) {
    const { code, signal } = await ctx.floor.exit;
    throw new Error(
      `the engine floor exited with ${signal || `code ${code}`} during ${scenario.name}@${connections}`,
    );
  }
  if (ctx.service && ctx.service.exited) {
    const { code, signal } = await ctx.service.exit;
    throw new Error(
      `the service exited with ${signal || `code ${code}`} during ${scenario.name}@${connections}` +
        (code === 0 ? ' (it exits 0 after a SIGTERM or SIGINT: was it stopped from outside?)' : ''),
    );
  }
  return row;
}

/**
 * The engine floor's run of a scenario it serves, right after the service's (same requests, same
 * connections, the same paired ceiling): `row` gains `floorRps` and `floorRatio` (the service's
 * req/s as a share of the floor's). Only at the throughput sections' connection count.
 */
async function floorRun(ctx, scenario, row, connections, ceilingRow) {
  if (!ctx.floor || !scenario.floor || connections !== ctx.o.connections) return;
  const floorRow = await run(ctx, scenario, connections, ceilingRow, { record: false, onFloor: true });
  floorRow.section = row.section;
  ctx.floorRows.push(floorRow);
  row.floorRps = floorRow.rps;
  row.floorRatio = row.rps / floorRow.rps;
  row.floorCeilingRatio = floorRow.ratio;
}

// ---------------------------------------------------------------------------------------------
// Set-up: database, CLI, processes, seeding.

async function createMysqlDatabase(o) {
  const mysql = require('mysql2/promise');
  const base = new URL(o.mysqlUrl);
  const name = `prm_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const connection = await mysql.createConnection({
    host: base.hostname,
    port: Number(base.port || 3306),
    user: decodeURIComponent(base.username || 'root'),
    password: decodeURIComponent(base.password || ''),
  });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const [[{ version }]] = await connection.query('SELECT VERSION() AS version');
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    version,
    drop: async () => {
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}

/** The main partner: BENCH_SEED_LEADS leads over HTTP (or an existing partner with --partner). */
async function ensureMain(ctx) {
  if (ctx.main) return ctx.main;
  const { o, api } = ctx;
  const statuses = ctx.options.statuses;
  const main = { status: statuses[0] || null };
  const approveNeeded = o.approvePool;
  if (o.partner) {
    main.partnerId = o.partner;
    process.stderr.write(`reading the leads of partner ${o.partner} ...\n`);
    main.ids = await seed.listLeadIds(api, o.partner, '', 5000);
    const pending = await seed.listLeadIds(api, o.partner, '&approvalStatus=PENDING', 2 * approveNeeded);
    main.approveWarmupIds = pending.slice(0, Math.floor(pending.length / 2));
    main.approveIds = pending.slice(Math.floor(pending.length / 2));
  } else {
    main.partnerId = await seed.createPartner(api, 'main', ctx.run);
    process.stderr.write(
      `seeding ${fmt.int(o.seedLeads)} leads over HTTP into partner ${main.partnerId} ...\n`,
    );
    const seeded = await seed.seedLeadsOverHttp(api, main.partnerId, o.seedLeads, ctx.run, ctx.options);
    main.ids = seeded.ids;
    ctx.seeding.push({
      what: `partner ${main.partnerId}: POST /partners/{id}/leads, 32 in flight`,
      count: o.seedLeads,
      seconds: seeded.seconds,
      rate: seeded.rate,
    });
    // the newest leads are approved: the oldest stay pending for the filtered listing's sake
    const pool = Math.min(approveNeeded, Math.floor(seeded.ids.length / 2));
    main.approveIds = seeded.ids.slice(-pool);
    main.approveWarmupIds = seeded.ids.slice(-2 * pool, -pool);
    if (o.url) process.stderr.write(`(next time, reuse it with --partner ${main.partnerId})\n`);
  }
  if (main.ids.length === 0) throw new Error(`partner ${main.partnerId} has no leads`);
  if (main.approveWarmupIds.length === 0) main.approveWarmupIds = main.approveIds;
  main.total = await seed.countLeads(api, main.partnerId);
  main.lastPage = Math.max(0, Math.ceil(main.total / 100) - 1);
  main.filteredTotal = await seed.countLeads(
    api,
    main.partnerId,
    `&approvalStatus=PENDING${main.status ? `&status=${main.status}` : ''}&keyword=seed1`,
  );
  ctx.main = main;
  ctx.memory.push(['after seeding the main partner', peakRss(ctx.servicePid)]);
  return main;
}

/** The flatness partners: BENCH_FLAT_BASE_LEADS and BENCH_LARGE_LEADS leads, by leads:import. */
async function ensureFlat(ctx) {
  if (ctx.flat) return ctx.flat;
  const { o, api } = ctx;
  if (o.url) throw new UsageError('the flatness scenarios need the bulk import: not available with --url');
  const sizes = { base: Math.min(o.flatBaseLeads, o.largeLeads), large: o.largeLeads };
  const flat = {};
  for (const size of ['base', 'large']) {
    const count = sizes[size];
    const partnerId = await seed.createPartner(api, `flat-${size}`, ctx.run);
    const file = join(ctx.tmp, `leads-${size}.ndjson`);
    process.stderr.write(`writing ${fmt.int(count)} leads to ${file} ...\n`);
    const written = await seed.writeLeadsNdjson(file, count, `${size}.${ctx.run}`, ctx.options);
    process.stderr.write(
      `importing them into partner ${partnerId} (node dist/cli.js leads:import; ${fmt.mb(written.bytes)} MB) ...\n`,
    );
    const imported = await seed.importLeads(ctx.cliPath, ctx.env, ctx.vendorId, partnerId, file, count);
    rmSync(file, { force: true });
    const total = await seed.countLeads(api, partnerId);
    if (total !== count)
      throw new Error(`partner ${partnerId} lists ${total} leads after importing ${count}`);
    flat[size] = { partnerId, count };
    ctx.seeding.push({
      what: `partner ${partnerId}: leads:import (${fmt.mb(written.bytes)} MB NDJSON, written in ${written.seconds.toFixed(1)} s)`,
      count,
      seconds: Number(imported.seconds) || imported.wallSeconds,
      rate: imported.rate,
      note: `${imported.wallSeconds.toFixed(1)} s wall-clock with the CLI's start; rejected ${imported.rejected}`,
      import: true,
    });
  }
  ctx.flat = flat;
  ctx.memory.push(['after the imports', peakRss(ctx.servicePid)]);
  return flat;
}

// ---------------------------------------------------------------------------------------------
// Against the engine: deep pages and filtered listings of the large partner, one request at a
// time, each timed beside the same question sent as plain SQL to the engine (bench/lib/engine.js).

/** The listing requests of the section and, for each, the SQL that asks the engine the same. */
function engineCases(ctx, dateParam) {
  const { partnerId, count } = ctx.flat.large;
  const leads = `${NS}/partners/${partnerId}/leads`;
  const bucket = 'vendor_id = ? AND partner_id = ? AND archived = 0';
  const base = [ctx.vendorId, partnerId];
  const order = 'ORDER BY created_at DESC, id DESC';
  // page 0 with no filter: what any listing request costs the service beyond the engine's work
  const cases = [
    {
      name: 'page0',
      kind: 'base',
      title: 'page 0, no filter (the cost of a request; not judged)',
      path: leads,
      sql: [[`SELECT * FROM leads WHERE ${bucket} ${order} LIMIT 20 OFFSET 0`, base]],
    },
  ];
  const lastPage = Math.max(0, Math.ceil(count / 100) - 1);
  const pages = [...new Set([Math.floor(count / 1000), Math.floor(count / 200), lastPage])].filter(
    (p) => p > 0,
  );
  for (const page of pages) {
    const offset = page * 100;
    cases.push({
      name: `deep-${offset}`,
      kind: 'deep',
      title: `page at OFFSET ${fmt.int(offset)} (perPage 100)${page === lastPage ? ', the last page' : ''}`,
      path: `${leads}?perPage=100&page=${page}`,
      // no row filter: the service's totalItems comes from the maintained counts, so the engine is
      // asked for the page alone
      sql: [[`SELECT * FROM leads WHERE ${bucket} ${order} LIMIT 100 OFFSET ${offset}`, base]],
    });
  }
  // a filtered page 0 answers an exact count of its index range and the first 20 rows of it
  const filteredCase = (name, title, query, count, page) =>
    cases.push({ name, kind: 'filtered', title, path: `${leads}?${query}`, count, sql: [count, page] });
  const filtered = (name, title, query, where, params) => {
    const condition = `${bucket} AND ${where}`;
    const all = [...base, ...params];
    filteredCase(
      name,
      title,
      query,
      [`SELECT COUNT(*) AS n FROM leads WHERE ${condition}`, all],
      [`SELECT * FROM leads WHERE ${condition} ${order} LIMIT 20 OFFSET 0`, all],
    );
  };
  const [status] = ctx.options.statuses;
  const [source] = ctx.options.sources;
  if (status) filtered('status', `page 0, status=${status}`, `status=${status}`, 'status = ?', [status]);
  if (source) filtered('source', `page 0, source=${source}`, `source=${source}`, 'source = ?', [source]);
  // a keyword: the two index ranges of its prefix (first name, email), unioned, then those rows;
  // a common prefix (large12: 11% of a million) and a rare one (large99999: 11 leads)
  const arm = (column) => `SELECT id FROM leads WHERE ${bucket} AND ${column} >= ? AND ${column} < ?`;
  const matches = `(${arm('first_name_normalized')} UNION ${arm('email_normalized')}) k`;
  for (const [name, keyword, upper] of [
    ['keyword', 'large12', 'large13'],
    ['keyword-rare', 'large99999', 'large9999:'],
  ]) {
    const params = [...base, keyword, upper, ...base, keyword, upper];
    filteredCase(
      name,
      `page 0, keyword=${keyword} (first name or email prefix)`,
      `keyword=${keyword}`,
      [`SELECT COUNT(*) AS n FROM ${matches}`, params],
      [
        `SELECT l.* FROM ${matches} CROSS JOIN leads l ON l.id = k.id ORDER BY l.created_at DESC, l.id DESC LIMIT 20 OFFSET 0`,
        params,
      ],
    );
  }
  const today = new Date().toISOString().slice(0, 10);
  filtered(
    'created',
    `page 0, createdAtAfter=${today} (every lead)`,
    `createdAtAfter=${today}`,
    'created_at >= ?',
    [dateParam(new Date(`${today}T00:00:00.000Z`))],
  );
  return cases;
}

/**
 * ms of `fn()`, the median of `runs` after two unmeasured calls: as many as fit in about 2 s, from
 * 3 (slow requests) to 61. Requests of a millisecond or less get the most runs: the rare keyword's
 * figure is the difference of two such medians, and with 15 runs it moved from -3 to 3 between runs.
 */
async function timeService(fn) {
  await fn();
  const started = process.hrtime.bigint();
  await fn();
  const first = Number(process.hrtime.bigint() - started) / 1e6;
  const runs = Math.min(61, Math.max(3, Math.round(2000 / Math.max(first, 1))));
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return { ms: median(ms), runs };
}

async function measureAgainstEngine(ctx) {
  const engine = await openEngine(ctx.o.engine, ctx.env.DATABASE_URL);
  const rows = [];
  try {
    const headers = { 'X-API-KEY': ctx.key };
    for (const c of engineCases(ctx, engine.dateParam)) {
      const url = `${ctx.api.url}${c.path}`;
      const body = await expectStatus(200, 'GET', url, { headers });
      if (c.count) {
        // the SQL asks the engine the same question: the same number of leads matches
        const counted = await engine.count(c.count);
        if (Number(counted) !== body.data.totalItems)
          throw new Error(`${c.name}: the engine counts ${counted}, the service ${body.data.totalItems}`);
      }
      const service = await timeService(() => expectStatus(200, 'GET', url, { headers }));
      const engineMs = await engine.time(c.sql, service.runs);
      const row = {
        name: c.name,
        kind: c.kind,
        title: c.title,
        matching: body.data.totalItems,
        serviceMs: service.ms,
        engineMs,
        ratio: service.ms / engineMs,
        runs: service.runs,
      };
      rows.push(row);
      process.stderr.write(
        `  ${c.name.padEnd(14)} service ${fmt.ms(row.serviceMs)} ms, engine ${fmt.ms(row.engineMs)} ms (x${fmt.ratio(row.ratio)})\n`,
      );
    }
  } finally {
    await engine.close();
  }
  ctx.againstEngine = rows;
}

async function ensure(ctx, needs) {
  if (needs.includes('main') || needs.includes('approve')) await ensureMain(ctx);
  if (needs.includes('flat')) await ensureFlat(ctx);
}

/** What shares the machine's cores during the runs: "client, service, ceiling and database". */
function sharing(ctx) {
  const parts = ['client', 'service', 'ceiling'];
  if (ctx.floor) parts.push('engine floor');
  if (ctx.o.engine === 'mysql') parts.push('database');
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

function machineFacts(ctx) {
  const cpus = os.cpus();
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', '--', 'src'], {
      cwd: ROOT,
      encoding: 'utf8',
    }).trim();
    if (dirty) commit += ' (src/ modified)';
  } catch {
    // not a git checkout
  }
  const { o } = ctx;
  return [
    ['date', new Date().toISOString()],
    ['code', commit],
    [
      'machine',
      `${cpus.length} × ${cpus[0] ? cpus[0].model.trim() : 'unknown CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}; load average ${ctx.loadAtStart} at the start, ${loadAverage()} at the end (other work on the machine skews the numbers)`,
    ],
    ['Node', process.version],
    ['engine', ctx.engineText],
    [
      'load',
      `autocannon ${require('autocannon/package.json').version}, ${o.connections} connections (latency section: ${o.latencyConnections}), ${o.seconds} s per scenario after a ${o.warmup} s warm-up; ${sharing(ctx)} share the machine`,
    ],
    [
      'engine floor',
      ctx.floor
        ? `${o.engine === 'mysql' ? 'bench/floor-server-mysql.js (mysql2, a pool of 10, prepared statements)' : 'bench/floor-server.js (better-sqlite3)'} on the service's database, run right after get-lead, list and create-lead at ${o.connections} connections with the same requests`
        : `not run (${o.url ? '--url' : o.noFloor ? '--no-floor' : 'the scenario is not one the floor serves'})`,
    ],
    [
      'seed',
      `${ctx.main ? fmt.int(ctx.main.total) : '-'} leads in the main partner (over HTTP)${ctx.flat ? `; ${fmt.int(ctx.flat.base.count)} and ${fmt.int(ctx.flat.large.count)} in the flatness partners (leads:import)` : o.largeLeads === 0 ? '; flatness section skipped (BENCH_LARGE_LEADS=0)' : ''}`,
    ],
    ...ctx.seeding
      .filter((s) => s.import)
      .map((s) => ['bulk import', `${fmt.int(s.count)} leads at ${fmt.int(s.rate)} rows/s (leads:import)`]),
  ];
}

function check(targets, name, value, goal, pass, digits = 2) {
  targets.push({
    name,
    measured: Number.isFinite(value) ? value.toFixed(digits) : '-',
    goal,
    pass: Boolean(pass),
  });
}

/** A measured figure shown among the targets, with no goal (neither pass nor FAIL). */
function info(targets, name, value, digits = 2) {
  targets.push({
    name,
    measured: Number.isFinite(value) ? value.toFixed(digits) : '-',
    goal: '-',
    info: true,
  });
}

function targetsOf(ctx) {
  const t = [];
  const row = (name, connections) => ctx.rows.find((r) => r.name === name && r.connections === connections);
  const { o } = ctx;
  const ratioGoals =
    o.engine === 'sqlite'
      ? [
          ['get-lead', 0.5],
          ['wrong-key', 0.7],
          ['create-lead', 0.3],
          ['approve', 0.25],
          ['list', 0.2],
        ]
      : [['get-lead', 0.3]];
  for (const [name, goal] of ratioGoals) {
    const r = row(name, o.connections);
    if (r && Number.isFinite(r.ratio))
      check(
        t,
        `${name} / ceiling req/s @${o.connections} (${o.engine})`,
        r.ratio,
        `>= ${goal}`,
        r.ratio >= goal,
      );
  }
  // The share of the engine floor: informational (docs/performance.md "The engine floor" sets no goal).
  for (const r of ctx.rows.filter((x) => x.connections === o.connections && Number.isFinite(x.floorRatio))) {
    info(t, `${r.name} / engine floor req/s @${o.connections} (${o.engine})`, r.floorRatio);
    if (Number.isFinite(r.floorCeilingRatio))
      info(t, `${r.name}: engine floor / ceiling req/s @${o.connections} (${o.engine})`, r.floorCeilingRatio);
  }
  for (const [name, goal] of [
    ['get-lead', 5],
    ['list', 15],
  ]) {
    const r = row(name, o.latencyConnections);
    if (r) check(t, `${name} p99 @${o.latencyConnections} (ms)`, r.p99, `< ${goal}`, r.p99 < goal);
  }
  // The service's scenarios only: the ceiling is the yardstick, not a request of the service (its
  // own p99/p50 stays in the tables, as how wide the machine's tail was that day).
  for (const r of ctx.rows.filter((x) => x.connections === o.connections && x.name !== 'ceiling')) {
    check(t, `${r.name} p99/p50 @${o.connections}`, r.p99 / r.p50, '<= 4', r.p99 <= 4 * r.p50);
  }
  for (const suffix of ['', '-pending']) {
    const base = row(`flat-base${suffix}`, o.connections);
    const large = row(`flat-large${suffix}`, o.connections);
    if (base && large) {
      const ratio = large.rps / base.rps;
      check(
        t,
        `flatness${suffix ? ' (PENDING filter)' : ''}: req/s ${fmt.int(ctx.flat.large.count)} / ${fmt.int(ctx.flat.base.count)} leads`,
        ratio,
        '>= 0.8',
        ratio >= 0.8,
      );
    }
  }
  const rows = ctx.againstEngine || [];
  const page0 = rows.find((r) => r.kind === 'base');
  for (const r of rows) {
    if (r.kind === 'deep') {
      check(
        t,
        `${r.name}: service ms / engine ms (${fmt.int(ctx.flat.large.count)} leads)`,
        r.ratio,
        '<= 1.5',
        r.ratio <= 1.5,
      );
    } else if (r.kind === 'filtered' && page0) {
      const beyond = (r.serviceMs - page0.serviceMs) / r.engineMs;
      check(
        t,
        `${r.name}: (service ms - page 0 ms) / engine ms (${fmt.int(ctx.flat.large.count)} leads)`,
        beyond,
        '<= 1.5',
        beyond <= 1.5,
      );
    }
  }
  const peak = ctx.memory.length > 0 ? ctx.memory[ctx.memory.length - 1][1] : null;
  if (peak) check(t, 'service peak RSS (VmHWM, MB)', peak / 2 ** 20, '< 250', peak < 250 * 2 ** 20, 0);
  return t;
}

function errorsOf(ctx) {
  const errors = [];
  // the floor's runs too: a floor that refuses its requests measures nothing
  for (const r of [...ctx.rows, ...ctx.floorRows]) {
    const total = r.requests + (r.unexpected.timeouts || 0) + (r.unexpected['socket errors'] || 0);
    // no response and no error: every request took longer than the run (0 req/s, not an error)
    if (total > 0 && r.unexpectedCount / total > ctx.o.maxUnexpected) {
      errors.push(
        `${r.name}@${r.connections}${ctx.floorRows.includes(r) ? ' on the engine floor' : ''}: ${r.unexpectedText} unexpected of ${fmt.int(total)} (more than ${ctx.o.maxUnexpected * 100}%, expected ${r.expected})`,
      );
    }
  }
  return errors;
}

/** What `× floor` means, for a section with floor runs (undefined without). */
function floorText(ctx) {
  if (ctx.floorRows.length === 0) return undefined;
  const script = ctx.o.engine === 'mysql' ? 'bench/floor-server-mysql.js' : 'bench/floor-server.js';
  return `\`× floor\` is the scenario's req/s divided by the req/s of the engine floor (\`${script}\`: the service's own statements for the request behind a bare route, on the same database) measured right after it with the same requests and connections (\`floor req/s\`); the floor serves \`get-lead\`, \`list\` and \`create-lead\`. The targets list the share and the floor's own ratio to the ceiling as \`info\`: no goal is set for them.`;
}

function buildReport(ctx) {
  const { o } = ctx;
  const inSection = (s) => ctx.rows.filter((r) => r.section === s);
  const sections = [];
  if (o.only) {
    sections.push({ title: `Only ${o.onlyNames.join(', ')}`, text: floorText(ctx), rows: ctx.rows });
  } else {
    sections.push({
      title: `Throughput at ${o.connections} connections`,
      text: `\`× ceiling\` is the scenario's req/s divided by the req/s of the ceiling measured right before it at the same connection count (\`ceiling req/s\`); the first row is the ceiling at the start of the section.${ctx.floorRows.length > 0 ? ` ${floorText(ctx)}` : ''}`,
      rows: inSection('throughput'),
    });
    sections.push({
      title: `Latency at ${o.latencyConnections} connections`,
      text: 'Targets: p99 < 5 ms for GET lead, < 15 ms for page 0 of the list.',
      rows: inSection('latency'),
    });
    if (ctx.flat) {
      sections.push({
        title: 'Flatness: page 0 on a small and a large partner',
        text: `The same page-0 requests on a partner with ${fmt.int(ctx.flat.base.count)} leads and one with ${fmt.int(ctx.flat.large.count)} (both seeded by \`leads:import\`, so all PENDING); target: req/s(large) / req/s(small) >= 0.8.`,
        rows: inSection('flat'),
      });
    }
    if (ctx.againstEngine) {
      sections.push({
        title: 'Against the engine: deep pages and filtered listings',
        text: `Requests to the partner with ${fmt.int(ctx.flat.large.count)} leads, one at a time, each beside the same question sent as plain SQL straight to the engine by the benchmark's own connection: a deep page is \`SELECT * ... ORDER BY created_at DESC, id DESC LIMIT 100 OFFSET n\`; a filtered page 0 is its exact \`COUNT(*)\` and its first 20 rows (the service's \`totalItems\` is checked to equal that count). Medians of the runs shown. Targets: a deep page, service ms / engine ms <= 1.5; a filtered page 0, what it costs beyond an unfiltered page 0 at most 1.5 times what the engine needs for it, (service ms - page 0 ms) / engine ms <= 1.5: it costs what its index range costs, not the partner's size.`,
        lines: [
          '| request | matching leads | runs | service ms | engine ms | service / engine |',
          '|---|---:|---:|---:|---:|---:|',
          ...ctx.againstEngine.map(
            (r) =>
              `| ${r.title} | ${fmt.int(r.matching)} | ${r.runs} | ${fmt.ms(r.serviceMs)} | ${fmt.ms(r.engineMs)} | ${fmt.ratio(r.ratio)} |`,
          ),
        ],
      });
    }
  }
  if (ctx.seeding.length > 0) {
    sections.push({
      title: 'Seeding',
      lines: [
        '| seeding | leads | seconds | rows/s | |',
        '|---|---:|---:|---:|---|',
        ...ctx.seeding.map(
          (s) =>
            `| ${s.what} | ${fmt.int(s.count)} | ${s.seconds.toFixed(1)} | ${fmt.int(s.rate)} | ${s.note || ''} |`,
        ),
      ],
    });
  }
  if (ctx.memory.some(([, v]) => v)) {
    sections.push({
      title: 'Memory of the service',
      text: 'Peak resident set size so far (VmHWM of /proc/<pid>/status) at each point of the run.',
      lines: [
        '| point | peak RSS MB |',
        '|---|---:|',
        ...ctx.memory.map(([point, bytes]) => `| ${point} | ${fmt.mb(bytes)} |`),
      ],
    });
  }
  const busy = busyWarning(ctx);
  if (busy) sections.unshift({ title: 'Warning: a busy machine', text: busy });
  const report = {
    title: `Benchmark results (${o.engine})`,
    facts: machineFacts(ctx),
    sections,
    targets: targetsOf(ctx),
    errors: [...errorsOf(ctx), ...ctx.failures],
  };
  report.extra = [
    ...(busy ? [`WARNING ${busy}`] : []),
    ...ctx.seeding
      .filter((s) => s.import)
      .map((s) => `import: ${fmt.int(s.count)} leads at ${fmt.int(s.rate)} rows/s`),
    ...(ctx.memory.some(([, v]) => v)
      ? [`service peak RSS: ${fmt.mb(ctx.memory[ctx.memory.length - 1][1])} MB`]
      : []),
  ];
  return report;
}

// ---------------------------------------------------------------------------------------------

async function main() {
  let o;
  try {
    o = readOptions();
  } catch (error) {
    process.stderr.write(`${error.message}\n\n${USAGE.replace('SCENARIOS', scenarioNames())}`);
    return 2;
  }
  if (o.help) {
    process.stdout.write(USAGE.replace('SCENARIOS', scenarioNames()));
    return 0;
  }
  const ctx = {
    o,
    run: Date.now().toString(36),
    rows: [],
    floorRows: [],
    seeding: [],
    memory: [],
    failures: [],
    loadAtStart: loadAverage(),
    cliPath: process.env.BENCH_CLI || join(ROOT, 'dist', 'cli.js'),
    options: { statuses: [], sources: [] },
  };
  const catalog = scenarioCatalog(ctx);
  const only = o.onlyNames.map((name) => catalog.find((s) => s.name === name));
  const unknown = o.onlyNames.filter((name, i) => !only[i]);
  if (unknown.length > 0) {
    process.stderr.write(`unknown scenario ${unknown.join(', ')}; one of: ${scenarioNames()}\n`);
    return 2;
  }
  const cleanups = [];
  let cleaning;
  // once: stop the child processes, then drop the MySQL database and remove the temporary directory
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const step of [stopAll, ...cleanups.reverse()]) {
        try {
          await step();
        } catch (error) {
          process.stderr.write(`cleanup: ${error.message}\n`);
        }
      }
    })());
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    process.stderr.write('\ninterrupted: stopping the servers and cleaning up ...\n');
    cleanup().then(() => process.exit(130));
  });

  try {
    const wantsFlat = o.only ? only.some((s) => s.needs.includes('flat')) : o.largeLeads > 0;
    if (o.url) {
      ctx.api = { url: o.url, key: o.key };
      ctx.servicePid = o.pid;
      ctx.engineText = `a running service at ${o.url}`;
      if (o.status) ctx.options.statuses = [o.status];
    } else {
      execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.js')], { stdio: 'inherit' });
      if (wantsFlat && !/\bleads:import\b/.test(await cliHelp(ctx.cliPath, process.env))) {
        throw new UsageError(
          `${relative(ROOT, ctx.cliPath)} has no leads:import command. The flatness section seeds its large ` +
            'partners with the bulk import (node dist/cli.js leads:import --vendor ID --partner ID --file ' +
            'leads.ndjson), which is not in dist/ yet: build it (npm run build) once it exists, or run without ' +
            'the flatness section: BENCH_LARGE_LEADS=0 npm run bench',
        );
      }
      ctx.tmp = mkdtempSync(join(os.tmpdir(), 'prm-bench-'));
      cleanups.push(() => rmSync(ctx.tmp, { recursive: true, force: true }));
      let databaseUrl;
      if (o.engine === 'mysql') {
        const db = await createMysqlDatabase(o);
        cleanups.push(db.drop);
        databaseUrl = db.url;
        ctx.engineText = `MySQL/MariaDB ${db.version}, database ${db.name} (created for this run, dropped after)`;
        process.stderr.write(`database ${db.name} on ${new URL(o.mysqlUrl).host}\n`);
      } else {
        databaseUrl = `sqlite:${join(ctx.tmp, 'bench.sqlite')}`;
        ctx.engineText = 'SQLite, a fresh temporary file';
      }
      ctx.env = {
        ...process.env,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        MANAGEMENT_PORT: '0',
        HOST: '127.0.0.1',
        // The limiter runs on every request (its cost is measured) but never refuses one: the load
        // generator is one vendor and one address far above the defaults (docs/operations.md,
        // "Rate limits").
        RATE_LIMIT_PER_MINUTE: '1000000000',
        AUTH_FAILURES_PER_MINUTE: '1000000000',
      };
      const vendor = await runCli(ctx.cliPath, ['vendors:create', '--name', `Bench ${ctx.run}`], ctx.env);
      ctx.vendorId = vendor.vendorId;
      const option = async (kind, label) =>
        (
          await runCli(
            ctx.cliPath,
            ['lead-options:create', '--vendor', String(vendor.vendorId), '--kind', kind, '--label', label],
            ctx.env,
          )
        ).id;
      for (const label of ['New', 'Hot', 'Cold']) ctx.options.statuses.push(await option('status', label));
      ctx.options.sources.push(await option('source', 'Web'));
      const floorServes = o.only ? only.some((s) => s.floor) : true;
      process.stderr.write(
        `starting the service, the ceiling server${floorServes && !o.noFloor ? ' and the engine floor' : ''} ...\n`,
      );
      const [service, ceiling, floor] = await Promise.all([
        startService(ctx.env, vendor.apiKey),
        startCeiling(vendor.apiKey),
        // the floor runs the service's statements on the service's own database, beside it
        floorServes && !o.noFloor
          ? startFloor(o.engine, databaseUrl, vendor.apiKey, vendor.vendorId)
          : undefined,
      ]);
      ctx.floor = floor;
      ctx.api = { url: service.url, key: vendor.apiKey };
      ctx.ceiling = ceiling;
      ctx.servicePid = service.pid;
      ctx.service = service;
    }
    ctx.key = ctx.api.key;
    const withCeiling = o.onlyNames.includes('ceiling') || !o.noCeiling;
    if (o.url && withCeiling) {
      const ceiling = await startCeiling(o.key);
      ctx.ceiling = ceiling;
    }
    // the service answers at all, with this key
    await expectStatus(404, 'GET', `${ctx.api.url}${NS}/nothing`, { headers: { 'X-API-KEY': ctx.key } });

    const byName = (name) => catalog.find((s) => s.name === name);
    const go = async (name, section, connections, ceilingRow, options) => {
      const scenario = byName(name);
      await ensure(ctx, scenario.needs);
      const row = await run(ctx, scenario, connections, ceilingRow, options);
      row.section = section;
      if (!options || options.record !== false) await floorRun(ctx, scenario, row, connections, ceilingRow);
      return row;
    };
    // Each scenario's ratio is to the ceiling measured right before it (bench/README.md, "The
    // ceiling, and why ratios"): the machine's speed can change by half within a minute.
    const paired = async (name, section, connections) => {
      await ensure(ctx, byName(name).needs);
      const ceilingRow = await go('ceiling', section, connections, undefined, { record: false });
      return go(name, section, connections, ceilingRow);
    };
    if (o.only) {
      // the set-up first, so that no seeding runs between a ceiling run and its scenario
      for (const scenario of only) await ensure(ctx, scenario.needs);
      let ceilingRow = withCeiling ? await go('ceiling', 'only', o.connections) : undefined;
      const names = o.onlyNames.filter((name) => name !== 'ceiling');
      for (const [i, name] of names.entries()) {
        // each scenario after a ceiling run of its own, as in a full run (the first: the one above)
        if (withCeiling && i > 0)
          ceilingRow = await go('ceiling', 'only', o.connections, undefined, { record: false });
        await go(name, 'only', o.connections, ceilingRow);
      }
    } else {
      await ensureMain(ctx);
      process.stderr.write(`throughput at ${o.connections} connections:\n`);
      await go('ceiling', 'throughput', o.connections);
      for (const name of ['get-lead', 'list', 'list-filtered', 'list-last-page', 'wrong-key']) {
        await paired(name, 'throughput', o.connections);
      }
      ctx.memory.push(['after the read scenarios', peakRss(ctx.servicePid)]);
      process.stderr.write(`latency at ${o.latencyConnections} connections:\n`);
      await go('ceiling', 'latency', o.latencyConnections);
      for (const name of ['get-lead', 'list']) await paired(name, 'latency', o.latencyConnections);
      ctx.memory.push(['after the latency section', peakRss(ctx.servicePid)]);
      // writes last: they change the data the reads above measure
      process.stderr.write(`writes at ${o.connections} connections:\n`);
      for (const name of ['create-lead', 'approve']) await paired(name, 'throughput', o.connections);
      ctx.memory.push(['after the write scenarios', peakRss(ctx.servicePid)]);
      if (o.largeLeads > 0) {
        await ensureFlat(ctx);
        process.stderr.write(`flatness at ${o.connections} connections:\n`);
        for (const name of ['flat-base', 'flat-large', 'flat-base-pending', 'flat-large-pending']) {
          await paired(name, 'flat', o.connections);
        }
        ctx.memory.push(['after the flatness section', peakRss(ctx.servicePid)]);
        process.stderr.write('against the engine, one request at a time:\n');
        await measureAgainstEngine(ctx);
      }
    }
    const final = peakRss(ctx.servicePid);
    if (final) ctx.memory.push(['end of the run (peak)', final]);
  } catch (error) {
    if (interrupted) return cleanup().then(() => 130);
    if (error instanceof UsageError) {
      await cleanup();
      closeAgent();
      process.stderr.write(`bench: ${error.message}\n`);
      return 2;
    }
    let message = error.message;
    if (ctx.service && !message.startsWith('the service exited')) {
      const gone = await Promise.race([ctx.service.exit, sleep(1000).then(() => null)]);
      if (gone) message += ` (the service had exited with ${gone.signal || `code ${gone.code}`})`;
    }
    process.stderr.write(`bench failed: ${message}\n${error.stack || ''}\n`);
    ctx.failures.push(`the run stopped: ${message}`);
  }
  await cleanup();
  closeAgent();
  if (interrupted) return cleanup().then(() => 130);
  if (ctx.rows.length === 0) {
    process.stderr.write('bench: nothing was measured\n');
    return 1;
  }

  const report = buildReport(ctx);
  // a run that stopped half-way never overwrites the committed results
  const path =
    o.write && ctx.failures.length === 0
      ? join(__dirname, `results-${o.engine}.md`)
      : join(os.tmpdir(), `prm-bench-${o.engine}-${new Date().toISOString().replace(/[:.]/g, '-')}.md`);
  writeFileSync(path, markdown(report));
  process.stderr.write(summary(report, ctx.rows));
  process.stderr.write(`report: ${path}\n`);
  process.stdout.write(`${path}\n`);
  return report.errors.length > 0 ? 1 : 0;
}

/** A warning when other work kept the machine's cores busy before the run started, or null. */
function busyWarning(ctx) {
  const before = Number(ctx.loadAtStart.split(' ')[0]);
  const cores = os.cpus().length;
  if (before <= cores / 2) return null;
  return `the load average was ${before.toFixed(2)} on ${cores} cores before the run started: other processes competed with the load generator, the service and the ceiling, so the req/s, the ratios and the latencies are less reliable than usual; rerun on a quiet machine.`;
}

function loadAverage() {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

function scenarioNames() {
  return scenarioCatalog({})
    .map((s) => s.name)
    .join(', ');
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${error.stack || error}\n`);
    process.exit(1);
  },
);
