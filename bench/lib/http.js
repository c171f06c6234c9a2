// A small keep-alive JSON client for seeding and set-up (the load itself is autocannon's).
'use strict';
const http = require('node:http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** Resolves to { status, body } (body parsed as JSON when it is JSON); rejects on network errors. */
function request(method, url, { headers = {}, body, timeoutMs = 30000 } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent,
        timeout: timeoutMs,
        headers: {
          ...headers,
          ...(payload !== undefined
            ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let parsed = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode, body: parsed });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like request(), but rejects unless the status is `expected`; resolves to the parsed body. */
async function expectStatus(expected, method, url, options) {
  const res = await request(method, url, options);
  if (res.status !== expected) {
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
    throw new Error(
      `${method} ${url}: expected ${expected}, got ${res.status}: ${String(text).slice(0, 500)}`,
    );
  }
  return res.body;
}

/** Runs `fn(i)` for i in [0, n) with at most `concurrency` calls in flight; resolves to the results. */
async function pool(n, concurrency, fn) {
  const results = new Array(n);
  let next = 0;
  const worker = async () => {
    while (next < n) {
      const i = next++;
      results[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return results;
}

function closeAgent() {
  agent.destroy();
}

module.exports = { request, expectStatus, pool, closeAgent };
