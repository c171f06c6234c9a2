import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';

/** Debian's `chromium` package; .ci/run installs it when missing. CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless Chromium driven by playwright-core; no browser is ever downloaded. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `no Chromium at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--headless', '--no-sandbox'] });
}

function onThisMachine(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'data:' || protocol === 'blob:' || protocol === 'about:') return true;
  return hostname === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(hostname) || hostname === '[::1]';
}

/**
 * The network blocked for the pages of `context`: requests (and WebSockets) to anything but this
 * machine are aborted and their URLs collected in the returned array, which a test expects empty.
 */
export async function blockNetworkBeyondLoopback(context: BrowserContext): Promise<string[]> {
  const outside: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (onThisMachine(url)) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  context.on('page', (page) =>
    page.on('websocket', (socket) => {
      if (!onThisMachine(socket.url())) outside.push(socket.url());
    }),
  );
  return outside;
}
