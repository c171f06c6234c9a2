// Drives one scenario with autocannon (programmatic API) and turns the run into one result row.
// Latency percentiles are computed here from every response's time in fractional milliseconds:
// autocannon's own histogram records whole milliseconds, too coarse for a 1-5 ms service.
'use strict';
const autocannon = require('autocannon');

/** Nearest-rank percentile of an ascending Float64Array. */
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/**
 * One autocannon run. `scenario` gives `method`, `headers`, `body` and optionally `setupRequest`
 * (called for every request, so the path or body can vary); every request is sent to `url`'s origin.
 */
function fire(url, scenario, connections, seconds) {
  let latencies = new Float64Array(1 << 16);
  let count = 0;
  const statuses = {};
  const request = { method: scenario.method || 'GET' };
  if (scenario.path !== undefined) request.path = scenario.path;
  if (scenario.body !== undefined) request.body = scenario.body;
  if (scenario.setupRequest) request.setupRequest = scenario.setupRequest;
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        headers: scenario.headers || {},
        requests: [request],
        timeout: 10,
      },
      (error, result) => {
        if (error) return reject(error);
        const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
        resolve({ result, latencies: latencies.subarray(0, count), statuses, elapsed });
      },
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (count === latencies.length) {
        const grown = new Float64Array(latencies.length * 2);
        grown.set(latencies);
        latencies = grown;
      }
      latencies[count++] = responseTime;
      statuses[statusCode] = (statuses[statusCode] || 0) + 1;
    });
  });
}

/**
 * Runs a scenario: a warm-up (discarded), then the measured run. Returns
 * { name, title, connections, seconds, requests, rps, p50, p90, p99, expected, statuses,
 *   unexpected, unexpectedText }.
 */
async function runScenario(baseUrl, scenario, { connections, seconds, warmup, settle = async () => {} }) {
  if (scenario.beforeWarmup) scenario.beforeWarmup();
  if (warmup > 0) {
    await fire(baseUrl, scenario, connections, warmup);
    await settle();
  }
  if (scenario.beforeRun) scenario.beforeRun();
  const { result, latencies, statuses, elapsed } = await fire(baseUrl, scenario, connections, seconds);
  await settle();
  const sorted = Float64Array.from(latencies).sort();
  const expected = scenario.expected;
  const unexpected = {};
  let unexpectedCount = 0;
  for (const [status, n] of Object.entries(statuses)) {
    if (Number(status) !== expected) {
      unexpected[status] = n;
      unexpectedCount += n;
    }
  }
  // autocannon counts a timeout in `errors` too
  const failures = {
    timeouts: result.timeouts,
    'socket errors': result.errors - result.timeouts,
  };
  for (const [kind, n] of Object.entries(failures)) {
    if (n > 0) {
      unexpected[kind] = n;
      unexpectedCount += n;
    }
  }
  return {
    name: scenario.name,
    title: scenario.title,
    connections,
    seconds,
    requests: sorted.length,
    rps: sorted.length / elapsed,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    expected,
    statuses,
    unexpected,
    unexpectedCount,
    unexpectedText:
      Object.entries(unexpected)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ') || (sorted.length === 0 ? 'no response within the run' : '0'),
  };
}

module.exports = { runScenario, percentile };
