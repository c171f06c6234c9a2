#!/usr/bin/env node
// `npm run docs:screenshot`: docs/images/api-docs.png, the README's picture of /docs (X14). Starts
// the built server with an in-memory database on free loopback ports, opens the page in Debian's
// headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with the network beyond this machine
// blocked, and saves the first screen.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync, mkdirSync } = require('node:fs');
const { createServer } = require('node:net');
const { dirname, join } = require('node:path');
const { chromium } = require('playwright-core');

const root = join(__dirname, '..');
const output = join(root, 'docs', 'images', 'api-docs.png');
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitUntilUp(url, child) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error('the server exited before it was up');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function main() {
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  }
  const [port, managementPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(root, 'dist', 'main.js')], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: 'sqlite::memory:',
      HOST: '127.0.0.1',
      PORT: String(port),
      MANAGEMENT_HOST: '127.0.0.1',
      MANAGEMENT_PORT: String(managementPort),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const browser = await chromium.launch({ executablePath, args: ['--headless', '--no-sandbox'] });
  try {
    const management = `http://127.0.0.1:${managementPort}`;
    await waitUntilUp(`${management}/healthz`, child);
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.route('**/*', (route) =>
      new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort(),
    );
    await page.goto(`${management}/docs`);
    await page.locator('.opblock').first().waitFor();
    mkdirSync(dirname(output), { recursive: true });
    await page.screenshot({ path: output });
    process.stdout.write(`wrote ${output}\n`);
  } finally {
    await browser.close();
    child.kill('SIGTERM');
  }
}

main().catch((error) => {
  process.stderr.write(`docs:screenshot: ${error instanceof Error ? error.message : error}\n`);
  process.exit(1);
});
