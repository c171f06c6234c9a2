// The database engine on its own, for the "against the engine" section: the same question a
// listing request asks (a page at an OFFSET, or a filtered page with its exact count), sent as
// plain SQL straight to the engine the service runs on, outside the service. Its time is what the
// engine needs; the service's time for the request is compared with it (bench/README.md).
'use strict';

/** Median of an array of numbers. */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A connection of the benchmark's own to the service's database: better-sqlite3 (read-only, beside
 * the service's connections; WAL lets both read) or one mysql2 connection. `time(statements,
 * runs)` runs the statements one after another `runs` times (after two unmeasured runs) and
 * resolves to the median milliseconds of one round; `count([sql, params])` resolves to the `n` of
 * a `SELECT COUNT(*) AS n`.
 */
async function openEngine(engine, databaseUrl) {
  if (engine === 'sqlite') {
    const Database = require('better-sqlite3');
    const db = new Database(databaseUrl.replace(/^sqlite:/, ''), { readonly: true });
    const prepared = new Map();
    const statement = (sql) => {
      if (!prepared.has(sql)) prepared.set(sql, db.prepare(sql));
      return prepared.get(sql);
    };
    const round = (statements) => {
      for (const [sql, params] of statements) statement(sql).all(...params);
    };
    return {
      dateParam: (date) => date.toISOString().replace('T', ' ').replace('Z', ''),
      async time(statements, runs) {
        round(statements);
        round(statements);
        const ms = [];
        for (let i = 0; i < runs; i++) {
          const started = process.hrtime.bigint();
          round(statements);
          ms.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
        return median(ms);
      },
      count: async ([sql, params]) => Number(statement(sql).get(...params).n),
      close: async () => db.close(),
    };
  }
  const mysql = require('mysql2/promise');
  const connection = await mysql.createConnection({ uri: databaseUrl, timezone: 'Z' });
  const round = async (statements) => {
    for (const [sql, params] of statements) await connection.execute(sql, params);
  };
  return {
    dateParam: (date) => date,
    async time(statements, runs) {
      await round(statements);
      await round(statements);
      const ms = [];
      for (let i = 0; i < runs; i++) {
        const started = process.hrtime.bigint();
        await round(statements);
        ms.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
      return median(ms);
    },
    count: async ([sql, params]) => Number((await connection.execute(sql, params))[0][0].n),
    close: () => connection.end(),
  };
}

module.exports = { openEngine, median };
