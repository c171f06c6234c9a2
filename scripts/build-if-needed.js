#!/usr/bin/env node
// `npm start` (and the tests that start the built server) build first when dist/ is missing or older
// than any file under src/. A lock file keeps two callers (parallel test files) from building at once.
'use strict';
const { execSync } = require('node:child_process');
const { closeSync, existsSync, openSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'dist', 'main.js');
const lock = join(root, '.build.lock');

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function stale() {
  const inputs = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];
  const newestSource = Math.max(...inputs.map((p) => newestMtime(join(root, p))));
  return !existsSync(built) || statSync(built).mtimeMs < newestSource;
}

function sleep(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function withLock(fn) {
  const deadline = Date.now() + 5 * 60 * 1000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      // a lock older than the deadline was left by a build that died
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 5 * 60 * 1000)
        rmSync(lock, { force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      sleep(200);
    }
  }
  try {
    fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

if (stale()) {
  withLock(() => {
    if (!stale()) return; // another caller built it while we waited
    process.stderr.write('building dist/ ...\n');
    execSync('npm run build', { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
  });
}
