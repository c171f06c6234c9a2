// Child processes of the benchmark: the service (node dist/main.js), the ceiling server, the engine
// floor, and the admin CLI (node dist/cli.js ...), plus the peak-memory reading of a process.
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { createServer } = require('node:net');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { request } = require('./http');

const ROOT = join(__dirname, '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Runs `node <cliPath> ...args` with `env`; resolves to its stdout's last JSON line. */
function runCli(cliPath, args, env, { inheritStderr = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', inheritStderr ? 'inherit' : 'pipe'],
    });
    track(child, `node ${args[0]}`, { quiet: true });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
    if (child.stderr) child.stderr.setEncoding('utf8').on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const line = stdout.trim().split('\n').pop() || '';
      if (code !== 0) {
        const what = `node ${cliPath.replace(`${ROOT}/`, '')} ${args.join(' ')}`;
        return reject(
          new Error(`${what} exited with ${signal || code}: ${(stderr || stdout).trim().slice(-2000)}`),
        );
      }
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(new Error(`node ${cliPath} ${args[0]} printed no JSON: ${stdout.slice(-500)}`));
      }
    });
  });
}

/** The help text of the CLI (lists its commands). */
function cliHelp(cliPath, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, '--help'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (c) => (text += c));
    child.stderr.setEncoding('utf8').on('data', (c) => (text += c));
    child.on('error', reject);
    child.on('exit', () => resolve(text));
  });
}

/** Every child process still running, for stopAll(). */
const live = new Set();

/** A child process that is stopped with SIGTERM (SIGKILL after `graceMs`). */
function track(child, name, { quiet = false } = {}) {
  let exited = false;
  let stopping = false;
  const exit = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      live.delete(proc);
      if (!stopping && !quiet) {
        process.stderr.write(`${name} (pid ${child.pid}) exited with ${signal || `code ${code}`}\n`);
      }
      resolve({ code, signal });
    }),
  );
  const proc = {
    name,
    child,
    pid: child.pid,
    exit,
    get exited() {
      return exited;
    },
    async stop(graceMs = 15000) {
      if (exited) return exit;
      stopping = true;
      child.kill('SIGTERM');
      const outcome = await Promise.race([exit, sleep(graceMs).then(() => null)]);
      if (outcome) return outcome;
      child.kill('SIGKILL');
      return exit;
    },
  };
  live.add(proc);
  return proc;
}

/** Stops every child process still running (servers, a CLI command in progress). */
function stopAll() {
  return Promise.all([...live].map((proc) => proc.stop()));
}

/** Polls until `url` answers with any HTTP status, or the process exits, or `timeoutMs` passes. */
async function waitForHttp(proc, url, headers, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (proc.exited) throw new Error(`${proc.name} exited before it answered on ${url}`);
    try {
      return await request('GET', url, { headers, timeoutMs: 2000 });
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`${proc.name} did not answer on ${url}: ${error.message}`, { cause: error });
      await sleep(100);
    }
  }
}

/** Starts `node dist/main.js` on a free port; resolves when it answers HTTP. */
async function startService(env, apiKey) {
  const port = await freePort();
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1', MANAGEMENT_PORT: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const proc = track(child, 'service (node dist/main.js)');
  proc.url = `http://127.0.0.1:${port}`;
  await waitForHttp(proc, `${proc.url}/api/v1/vendors/nothing`, { 'X-API-KEY': apiKey });
  return proc;
}

/** Starts `node <script>` with `env`; resolves when it prints {"port":N} (it listens). */
async function startListening(script, env, name) {
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const proc = track(child, name);
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      const match = /\{"port":(\d+)\}/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    proc.exit.then(() => reject(new Error(`${proc.name} exited before listening`)));
  });
  proc.url = `http://127.0.0.1:${port}`;
  return proc;
}

/** Starts bench/ceiling-server.js accepting `apiKey`; resolves when it listens. */
function startCeiling(apiKey) {
  return startListening(
    join(__dirname, '..', 'ceiling-server.js'),
    { CEILING_API_KEYS: apiKey },
    'ceiling server (bench/ceiling-server.js)',
  );
}

/**
 * Starts the engine floor of `engine` on the service's database (`databaseUrl`, as DATABASE_URL:
 * `sqlite:<path>` or `mysql://...`): bench/floor-server.js or bench/floor-server-mysql.js, accepting
 * `apiKey` for `vendorId`; resolves when it listens.
 */
function startFloor(engine, databaseUrl, apiKey, vendorId) {
  const script = engine === 'mysql' ? 'floor-server-mysql.js' : 'floor-server.js';
  const database =
    engine === 'mysql'
      ? { FLOOR_MYSQL_URL: databaseUrl }
      : { FLOOR_DATABASE: databaseUrl.replace(/^sqlite:/, '') };
  return startListening(
    join(__dirname, '..', script),
    { ...database, FLOOR_API_KEY: apiKey, FLOOR_VENDOR_ID: String(vendorId) },
    `engine floor (bench/${script})`,
  );
}

/** Peak resident set size of a live process in bytes (VmHWM of /proc/<pid>/status), or null. */
function peakRss(pid) {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

module.exports = { ROOT, runCli, cliHelp, startService, startCeiling, startFloor, stopAll, peakRss };
