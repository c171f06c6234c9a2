import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * X14: `/docs` on the management port, a reference page of the public API rendered by Swagger UI
 * from `/openapi.json`. Every script and style comes from this server (the swagger-ui-dist package),
 * so the page works with no network beyond the management port; docs/api-reference.md says why
 * each Content-Security-Policy source is there.
 */
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_VERSION = (
  JSON.parse(readFileSync(join(SWAGGER_UI_DIR, 'package.json'), 'utf8')) as { version: string }
).version;

/** The asset folder names the bundle's version, so a browser may keep the files for good. */
const ASSETS = `docs/assets/${SWAGGER_UI_VERSION}`;
const FILES: Record<string, string> = {
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/**
 * - default-src 'self': anything not named below comes from this server or not at all.
 * - img-src data: the stylesheet draws its icons (arrows, locks, the loading spinner) as data: URIs.
 * - scripts and styles (from default-src): 'self' only (no 'unsafe-inline', no 'unsafe-eval'): the page has no inline
 *   script or style, and the bundle sets styles through the DOM, which the CSP allows.
 * - connect-src (from default-src) 'self': the page fetches /openapi.json and nothing else.
 * - object-src, base-uri, form-action 'none', frame-ancestors 'none': nothing of that is used, and
 *   no other page may frame this one.
 */
export const API_DOCS_CSP = [
  "default-src 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * validatorUrl null: Swagger UI would otherwise show a badge image loaded from validator.swagger.io.
 * supportedSubmitMethods []: no "Try it out"; the API is on the public port (another origin, which
 * the CSP's connect-src 'self' refuses anyway), called with a vendor's key from the vendor's own tools.
 * With nothing to send, the security schemes are hidden from the UI's state, so there is no
 * "Authorize" dialog to type a key into (the operations still show that they need one).
 */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#api-reference',
  layout: 'BaseLayout',
  presets: [SwaggerUIBundle.presets.apis],
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayOperationId: true,
  validatorUrl: null,
  supportedSubmitMethods: [],
  plugins: [() => ({ statePlugins: { spec: { wrapSelectors: { securityDefinitions: () => () => null } } } })],
});
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Relative URLs, so the page also works behind a proxy that mounts the management port on a path. */
function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" type="image/png" href="${ASSETS}/favicon-32x32.png">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css">
</head>
<body>
<div id="api-reference"></div>
<script src="${ASSETS}/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;
}

function noCache(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff');
}

export function registerApiDocsPage(server: FastifyInstance, title: string): void {
  const html = page(title);
  server.get('/docs', async (_request, reply) => {
    noCache(reply)
      .header('Content-Security-Policy', API_DOCS_CSP)
      .header('Referrer-Policy', 'no-referrer')
      .type('text/html; charset=utf-8');
    return html;
  });
  // The page's URLs are relative to /docs; from /docs/ they would point one folder too deep.
  server.get('/docs/', async (_request, reply) => reply.redirect('../docs', 301));
  server.get('/docs/init.js', async (_request, reply) => {
    noCache(reply).type('application/javascript; charset=utf-8');
    return INIT_SCRIPT;
  });
  // Read on first use and kept: 1.7 MB a process needs only once someone opens the page.
  const cache = new Map<string, Buffer>();
  for (const [file, type] of Object.entries(FILES)) {
    server.get(`/${ASSETS}/${file}`, async (_request, reply) => {
      let body = cache.get(file);
      if (!body) {
        body = readFileSync(join(SWAGGER_UI_DIR, file));
        cache.set(file, body);
      }
      reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .type(type);
      return body;
    });
  }
}
