#!/usr/bin/env node
// Runs a command against a database of its own on the MySQL/MariaDB server of MYSQL_URL
// (default mysql://root@127.0.0.1:3306/test): creates `prm_test_<random>`, passes it to the command
// as TEST_DATABASE_URL, and drops it afterwards, so runs never see each other's data.
'use strict';
const { spawnSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const mysql = require('mysql2/promise');

async function main() {
  const base = new URL(process.env.MYSQL_URL || 'mysql://root@127.0.0.1:3306/test');
  const name = `prm_test_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const server = `${base.hostname}:${base.port || 3306}`;
  const connection = await mysql
    .createConnection({
      host: base.hostname,
      port: Number(base.port || 3306),
      user: decodeURIComponent(base.username || 'root'),
      password: decodeURIComponent(base.password || ''),
    })
    .catch((error) => {
      process.stderr.write(
        `npm run test:mysql needs a MySQL 8.0.17+ or MariaDB 10.6+ server at ${server} (MYSQL_URL) whose ` +
          `user may create databases, and it cannot be used: ${error.code || error.message}. ` +
          'Start one, or set MYSQL_URL (docs/mysql.md).\n',
      );
      process.exit(1);
    });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  process.stderr.write(`test database ${name} on ${base.host}\n`);
  let status;
  try {
    const [command, ...args] = process.argv.slice(2);
    const result = spawnSync(command, args, {
      stdio: 'inherit',
      shell: process.platform === 'win32',
      env: { ...process.env, TEST_DATABASE_URL: url.href },
    });
    status = result.status ?? 1;
  } finally {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.end();
  }
  process.exit(status);
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
