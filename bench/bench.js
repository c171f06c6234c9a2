#!/usr/bin/env node
// Load benchmark of the built server (`npm run bench`). Starts `node dist/main.js` on a fresh database
// (a temporary SQLite file, or BENCH_DATABASE_URL=mysql://... for an existing empty MySQL database),
// seeds a vendor, a partner and leads, then drives each scenario with a fixed number of concurrent
// keep-alive connections for a fixed time, and writes the numbers to bench/results-<engine>.md.
// Load generator and server share this machine's cores: the numbers are for comparing versions of
// this code on one machine, not absolute capacity.
'use strict';
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, writeFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const os = require('node:os');
const { join } = require('node:path');
const http = require('node:http');

const ROOT = join(__dirname, '..');
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 16);
const SECONDS = Number(process.env.BENCH_SECONDS || 5);
const SEED_LEADS = Number(process.env.BENCH_SEED_LEADS || 5000);

function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY * 2 });

function call(port, method, path, key, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          'X-API-KEY': key,
          ...(payload
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function drive(name, expected, makeRequest) {
  const latencies = [];
  const unexpected = {};
  let counter = 0;
  const end = Date.now() + SECONDS * 1000;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        const i = counter++;
        const t0 = process.hrtime.bigint();
        const { status } = await makeRequest(i);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        if (status !== expected) unexpected[status] = (unexpected[status] || 0) + 1;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  latencies.sort((a, b) => a - b);
  const row = {
    name,
    requests: latencies.length,
    rps: Math.round(latencies.length / elapsed),
    p50: percentile(latencies, 50).toFixed(2),
    p95: percentile(latencies, 95).toFixed(2),
    p99: percentile(latencies, 99).toFixed(2),
    unexpected:
      Object.entries(unexpected)
        .map(([status, count]) => `${count} × ${status}`)
        .join(', ') || '0',
  };
  process.stderr.write(`${JSON.stringify(row)}\n`);
  return row;
}

async function main() {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.js')], { stdio: 'inherit' });
  const tmp = mkdtempSync(join(os.tmpdir(), 'prm-bench-'));
  const databaseUrl = process.env.BENCH_DATABASE_URL || `sqlite:${join(tmp, 'bench.sqlite')}`;
  const engine = databaseUrl.startsWith('mysql:') ? 'mysql' : 'sqlite';
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    MANAGEMENT_PORT: '0',
    HOST: '127.0.0.1',
  };
  const cli = (...args) =>
    JSON.parse(
      execFileSync(process.execPath, [join(ROOT, 'dist', 'cli.js'), ...args], { env, encoding: 'utf8' }),
    );
  const { vendorId, apiKey } = cli('vendors:create', '--name', 'Bench');
  const status = cli(
    'lead-options:create',
    '--vendor',
    String(vendorId),
    '--kind',
    'status',
    '--label',
    'Hot',
  ).id;

  const port = await freePort();
  const server = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    try {
      await call(port, 'GET', '/', apiKey);
      break;
    } catch (error) {
      if (i > 200) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    const run = Date.now().toString(36);
    const invite = await call(port, 'POST', '/api/v1/vendors/partners', apiKey, {
      companyName: 'Bench Partner',
      contactName: 'Bench Contact',
      contactEmailAddress: `contact-${run}@bench.example`,
    });
    const partnerId = invite.body.data.id;
    process.stderr.write(`seeding ${SEED_LEADS} leads...\n`);
    const leadIds = [];
    for (let i = 0; i < SEED_LEADS; i += CONCURRENCY) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, SEED_LEADS - i) }, (_, j) =>
          call(port, 'POST', `/api/v1/vendors/partners/${partnerId}/leads`, apiKey, {
            firstName: `Seed${i + j}`,
            emailAddress: `seed${i + j}-${run}@bench.example`,
            companyName: 'Seed Co',
            status: (i + j) % 3 === 0 ? status : null,
          }),
        ),
      );
      for (const r of batch) leadIds.push(r.body.data.id);
    }

    const rows = [];
    rows.push(
      await drive('auth only: GET unknown route (404)', 404, () =>
        call(port, 'GET', '/api/v1/vendors/nothing', apiKey),
      ),
    );
    rows.push(
      await drive('GET /leads/{id}', 200, (i) =>
        call(port, 'GET', `/api/v1/vendors/leads/${leadIds[i % leadIds.length]}`, apiKey),
      ),
    );
    rows.push(
      await drive(`GET /partners/{id}/leads (page of 20 of ${SEED_LEADS})`, 200, (i) =>
        call(port, 'GET', `/api/v1/vendors/partners/${partnerId}/leads?page=${i % 50}&perPage=20`, apiKey),
      ),
    );
    rows.push(
      await drive('GET /partners/{id}/leads?keyword=seed12&status=…', 200, () =>
        call(
          port,
          'GET',
          `/api/v1/vendors/partners/${partnerId}/leads?keyword=seed12&status=${status}`,
          apiKey,
        ),
      ),
    );
    rows.push(
      await drive('POST /partners/{id}/leads (create)', 200, (i) =>
        call(port, 'POST', `/api/v1/vendors/partners/${partnerId}/leads`, apiKey, {
          firstName: `Load${i}`,
          emailAddress: `load${i}-${run}@bench.example`,
          companyName: 'Load Co',
        }),
      ),
    );
    rows.push(
      await drive('PUT /leads/{id}/approve (first approve, then retries)', 200, (i) =>
        call(port, 'PUT', `/api/v1/vendors/leads/${leadIds[i % leadIds.length]}/approve`, apiKey),
      ),
    );
    rows.push(
      await drive('POST /partners/{id}/users (one user, outbox write)', 200, (i) =>
        call(port, 'POST', `/api/v1/vendors/partners/${partnerId}/users`, apiKey, {
          users: [{ firstName: 'U', emailAddress: `user${i}-${run}@bench.example` }],
        }),
      ),
    );

    const cpu = os.cpus()[0] ? os.cpus()[0].model : 'unknown';
    const lines = [
      `# Benchmark results (${engine})`,
      '',
      `Written by \`npm run bench\`${engine === 'mysql' ? ' with BENCH_DATABASE_URL' : ''} on ${new Date().toISOString()}.`,
      `Machine: ${os.cpus().length} × ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}. Database: ${engine === 'mysql' ? 'MySQL/MariaDB on localhost' : 'SQLite file (WAL)'}.`,
      `${CONCURRENCY} concurrent keep-alive connections, ${SECONDS} s per scenario, ${SEED_LEADS} leads seeded; client and server on the same machine.`,
      '',
      '| scenario | requests | req/s | p50 ms | p95 ms | p99 ms | unexpected status |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows.map(
        (r) => `| ${r.name} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.unexpected} |`,
      ),
      '',
    ];
    writeFileSync(join(__dirname, `results-${engine}.md`), lines.join('\n'));
    process.stderr.write(`wrote bench/results-${engine}.md\n`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
    agent.destroy();
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
