import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as mysql from 'mysql2/promise';
import { isMysql, testDatabaseUrl } from './test-app';

export interface ScratchDatabase {
  /** a DATABASE_URL for an empty database of the engine under test */
  url: string;
  drop(): Promise<void>;
}

/**
 * An empty database of the engine under test, for tests that need a schema of their own (migrations
 * up and down, the CLI's db:migrate, several processes on one file): a temporary SQLite file, or a new
 * database on the MySQL server of TEST_DATABASE_URL.
 */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  if (!isMysql()) {
    const dir = mkdtempSync(join(tmpdir(), 'prm-'));
    return {
      url: `sqlite:${join(dir, 'scratch.sqlite')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const base = new URL(testDatabaseUrl());
  const name = `${base.pathname.slice(1)}_s${randomBytes(4).toString('hex')}`;
  const connection = await mysql.createConnection({
    host: base.hostname,
    port: Number(base.port || 3306),
    user: decodeURIComponent(base.username),
    password: decodeURIComponent(base.password),
  });
  await connection.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await connection.end();
    },
  };
}
