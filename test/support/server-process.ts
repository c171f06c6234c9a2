import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Builds dist/ unless it is up to date (CI builds before testing, so this is usually instant). */
/**
 * The Node that runs the built service and CLI in the process tests: SERVICE_NODE, else the one
 * running the tests. CI points it at Node 22 (the oldest line `engines` allows) for a second run of
 * the process tests, since jest itself needs Node 24 to load NestJS 12 (docs/testing.md).
 */
export const SERVICE_NODE = process.env.SERVICE_NODE ?? process.execPath;

export function ensureBuilt(): void {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.js')], {
    cwd: ROOT,
    stdio: 'ignore',
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  managementUrl: string;
  output(): string;
  /** resolves with the exit code */
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `node dist/main.js` and waits until its public port accepts connections. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const managementPort = await freePort();
  const child = spawn(SERVICE_NODE, [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      MANAGEMENT_PORT: String(managementPort),
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'json',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      await fetch(`${baseUrl}/`);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server did not start:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return {
    child,
    baseUrl,
    managementUrl: `http://127.0.0.1:${managementPort}`,
    output: () => output,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** `node dist/cli.js vendors:create` on `databaseUrl`, run by SERVICE_NODE: the vendor and its key. */
export function createVendorWithCli(databaseUrl: string, name: string): { vendorId: number; apiKey: string } {
  const stdout = execFileSync(
    SERVICE_NODE,
    [join(ROOT, 'dist', 'cli.js'), 'vendors:create', '--name', name],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    },
  );
  return JSON.parse(stdout);
}
