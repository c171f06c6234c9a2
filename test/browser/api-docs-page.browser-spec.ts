import type { Browser } from 'playwright-core';
import { ManagementServer } from '../../src/shared/management/management-server';
import { API_DOCS_CSP } from '../../src/shared/management/api-docs-page';
import { openApiDocument } from '../../src/shared/management/openapi';
import { blockNetworkBeyondLoopback, launchChromium } from '../support/chromium';
import { TestApp, createTestApp } from '../support/test-app';

interface OpenApiDocument {
  paths: Record<string, Record<string, { operationId?: string }>>;
}

/** Fetches and reads the whole body: a response left unread keeps its connection busy, and the
 * management server's close waits for it. */
async function get(url: string | URL, init?: RequestInit): Promise<{ response: Response; body: string }> {
  const response = await fetch(url, init);
  return { response, body: await response.text() };
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** "GET /api/v1/vendors/leads/{leadId} getLead" for every operation of the document. */
function operationsOf(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => `${method.toUpperCase()} ${path} ${operation.operationId ?? ''}`),
  );
}

/** X14: the reference page on the management port, rendered from /openapi.json with no network beyond it. */
describe('API reference page (/docs on the management port)', () => {
  let t: TestApp;
  let management: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await createTestApp();
    const port = await t.app.get(ManagementServer).start(0, '127.0.0.1', openApiDocument(t.app));
    management = `http://127.0.0.1:${port}`;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('is an HTML page with a restrictive Content-Security-Policy and nosniff', async () => {
    const { response } = await get(`${management}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const csp = response.headers.get('content-security-policy');
    expect(csp).toBe(API_DOCS_CSP);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it('loads every script and stylesheet from the service itself, served with nosniff', async () => {
    const { body: html } = await get(`${management}/docs`);
    expect(html).not.toMatch(/<script>|<style|style=/); // nothing inline, which the CSP would refuse
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(references).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/swagger-ui-bundle\.js$/),
        expect.stringMatching(/swagger-ui\.css$/),
        'docs/init.js',
      ]),
    );
    for (const reference of references) {
      expect(reference).not.toMatch(/^([a-z]+:|\/\/)/i); // relative: this server, whatever its address
      const { response: asset } = await get(new URL(reference, `${management}/docs`));
      expect(asset.status).toBe(200);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect(asset.headers.get('content-type')).toMatch(/^(application\/javascript|text\/css|image\/png)/);
    }
  });

  it('sends /docs/ to /docs, where its relative URLs resolve', async () => {
    const { response } = await get(`${management}/docs/`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(new URL(response.headers.get('location')!, `${management}/docs/`).href).toBe(`${management}/docs`);
  });

  it('serves no other file of the bundle', async () => {
    const { body: html } = await get(`${management}/docs`);
    const assets = /href="(docs\/assets\/[^/]+)\/swagger-ui\.css"/.exec(html)![1];
    for (const path of [`${assets}/package.json`, `${assets}/index.html`, `${assets}/../../openapi.json`]) {
      expect((await get(`${management}/${path}`)).response.status).toBe(404);
    }
  });

  it('lists every operation of /openapi.json, rendered in Chromium with the network blocked', async () => {
    const openapi = JSON.parse((await get(`${management}/openapi.json`)).body) as OpenApiDocument;
    const expected = operationsOf(openapi);
    expect(expected.length).toBeGreaterThan(0);

    const context = await browser.newContext({ serviceWorkers: 'block' });
    // Rendering takes a few seconds, several times that on a machine busy with other test files.
    context.setDefaultTimeout(100_000);
    try {
      const outside = await blockNetworkBeyondLoopback(context);
      const page = await context.newPage();
      const problems: string[] = []; // CSP violations and script errors show up here
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      await page.goto(`${management}/docs`);
      await page
        .locator('.opblock')
        .nth(expected.length - 1)
        .waitFor();
      const listed = await page
        .locator('.opblock')
        .evaluateAll((blocks) =>
          blocks.map((block) =>
            [
              block.querySelector('.opblock-summary-method')?.textContent,
              block.querySelector('.opblock-summary-path')?.getAttribute('data-path'),
              block.querySelector('.opblock-summary-operation-id')?.textContent ?? '',
            ].join(' '),
          ),
        );
      expect(listed.sort()).toEqual(expected.sort());

      // Opening each operation renders its parameters, bodies and schemas: still nothing goes out.
      for (const summary of await page.locator('.opblock-summary').all()) await summary.click();
      await page
        .locator('.opblock.is-open .opblock-body')
        .nth(expected.length - 1)
        .waitFor();
      // A reference, not a console: nowhere to type a key, nothing to send.
      await page.locator('.authorization__btn').first().click();
      expect(await page.locator('.btn.authorize, .try-out__btn, .dialog-ux').count()).toBe(0);
      expect(outside).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
