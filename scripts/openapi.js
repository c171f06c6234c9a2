#!/usr/bin/env node
// `npm run openapi`: writes docs/openapi.json, the OpenAPI document the management port serves at
// /openapi.json (X14), built from dist/ by the same function. `npm run openapi:check` (CI) fails when
// the committed file is not what the code produces. Keys are sorted at every level, so the file
// changes only where the API does; arrays keep their order.
'use strict';
const { join } = require('node:path');
const { parseArguments, writeOrCheck } = require('./generated-file');

const root = join(__dirname, '..');
const args = parseArguments(process.argv.slice(2), join(root, 'docs', 'openapi.json'));

// The document depends on the code only: an in-memory database with its schema (the app's modules
// expect one), no logs, no management port, and the default HOST and PORT, so its `servers` entry
// is http://localhost:3000 whatever the environment or .env says. Set before dist/ reads the
// configuration.
Object.assign(process.env, {
  HOST: '0.0.0.0',
  PORT: '3000',
  DATABASE_URL: 'sqlite::memory:',
  MIGRATIONS_RUN: 'true',
  LOG_LEVEL: 'silent',
  MANAGEMENT_PORT: '0',
});

function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys(value[key]);
  return sorted;
}

async function main() {
  require('reflect-metadata');
  const { AppModule } = require(join(root, 'dist', 'app.module'));
  const { createServerApp } = require(join(root, 'dist', 'bootstrap'));
  const { openApiDocument } = require(join(root, 'dist', 'shared', 'management', 'openapi'));
  const app = await createServerApp(AppModule);
  try {
    const text = `${JSON.stringify(sortKeys(openApiDocument(app)), null, 2)}\n`;
    writeOrCheck(args.file, text, { check: args.check, command: 'npm run openapi' });
  } finally {
    await app.close();
  }
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (error) => {
    process.stderr.write(`openapi: ${error instanceof Error ? (error.stack ?? error.message) : error}\n`);
    process.exit(1);
  },
);
