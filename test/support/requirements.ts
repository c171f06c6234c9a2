import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';

/**
 * What the suites outside `npm test` need, checked before any of their tests runs, so that a
 * missing Redis or browser stops the run with one line saying what to install or start
 * (docs/testing.md), never a skipped test or a page of connection errors.
 */
export class MissingRequirement extends Error {
  constructor(what: string, remedy: string) {
    super(`${what}. ${remedy}`);
    this.name = 'MissingRequirement';
  }
}

/** A TCP listener at `url`'s host and port within `timeoutMs`. */
export function reachable(url: string, defaultPort: number, timeoutMs = 2000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || defaultPort) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether `command --version` runs. */
export function runs(command: string): boolean {
  const result = spawnSync(command, ['--version'], { stdio: 'ignore' });
  return !result.error && result.status === 0;
}
