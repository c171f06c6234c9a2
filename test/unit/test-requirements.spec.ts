import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import requireRedis from '../redis/requirements.redis-setup';
import { freePort } from '../support/server-process';

/**
 * The suites outside `npm test` say what they need when it is missing, and stop (docs/testing.md):
 * one message naming the server or program and how to get it, never a skipped test.
 */
const ROOT = join(__dirname, '..', '..');

describe('what the optional test suites need, when it is missing', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('npm run test:mysql: no server at MYSQL_URL is exit 1 with one line naming it', async () => {
    const port = await freePort();
    const run = spawnSync(process.execPath, ['scripts/with-mysql-database.js', process.execPath, '-e', ''], {
      cwd: ROOT,
      env: { ...process.env, MYSQL_URL: `mysql://root@127.0.0.1:${port}/test` },
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      `npm run test:mysql needs a MySQL 8.0.17+ or MariaDB 10.6+ server at 127.0.0.1:${port} (MYSQL_URL) ` +
        'whose user may create databases, and it cannot be used: ECONNREFUSED. Start one, or set MYSQL_URL ' +
        '(docs/mysql.md).\n',
    );
  });

  it('npm run test:redis: no Redis at TEST_REDIS_URL stops the run naming it', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    process.env.TEST_REDIS_URL = url;
    await expect(requireRedis()).rejects.toThrow(
      `npm run test:redis needs a Redis server at ${url} (TEST_REDIS_URL), and nothing answers there. ` +
        'Start one (apt-get install -y redis-server; redis-server --daemonize yes) or set TEST_REDIS_URL.',
    );
  });

  it('npm run test:browser: no Chromium at CHROMIUM_PATH stops the run naming it', async () => {
    process.env.CHROMIUM_PATH = join(ROOT, 'no-such-chromium');
    let requireChromium!: () => Promise<void>;
    jest.isolateModules(() => {
      ({ default: requireChromium } = jest.requireActual('../browser/requirements.browser-setup'));
    });
    await expect(requireChromium()).rejects.toThrow(
      `npm run test:browser needs Chromium at ${process.env.CHROMIUM_PATH}, and there is none. ` +
        "Install Debian's package (apt-get install -y chromium) or set CHROMIUM_PATH.",
    );
  });
});
