// Seeding: partners and leads over the HTTP API, and the NDJSON file for the bulk import
// (`node dist/cli.js leads:import`) that seeds the large partners of the flatness section.
'use strict';
const { createWriteStream, statSync } = require('node:fs');
const { once } = require('node:events');
const { expectStatus, pool, request } = require('./http');
const { runCli } = require('./processes');

const COMPANIES = ['Northwind', 'Contoso', 'Fabrikam', 'Initech', 'Globex', 'Umbrella', 'Hooli'];
const CITIES = ['Lyon', 'Berlin', 'Austin', 'Osaka', 'Porto', null];

/** `POST /partners`: a new partner; resolves to its id. */
async function createPartner(api, label, run) {
  const body = await expectStatus(200, 'POST', `${api.url}/api/v1/vendors/partners`, {
    headers: { 'X-API-KEY': api.key },
    body: {
      companyName: `Bench ${label} ${run}`,
      contactName: `Bench ${label}`,
      contactEmailAddress: `contact-${label}-${run}@bench.example`,
    },
  });
  return body.data.id;
}

/** A lead of a seeded partner: `Seed<i>` (the filtered scenario's keyword is `seed1`). */
function seedLead(prefix, i, run, options) {
  const { statuses = [], sources = [] } = options;
  return {
    firstName: `${prefix}${i}`,
    lastName: 'Bench',
    emailAddress: `${prefix.toLowerCase()}${i}.${run}@bench.example`,
    companyName: `${COMPANIES[i % COMPANIES.length]} ${i % 97}`,
    jobTitle: i % 2 === 0 ? 'Buyer' : null,
    city: CITIES[i % CITIES.length],
    // a mix: each status option in turn, and one lead in four without a status
    status: statuses.length > 0 && i % 4 !== 3 ? statuses[i % statuses.length] : null,
    source: sources.length > 0 && i % 5 !== 4 ? sources[i % sources.length] : null,
  };
}

/** `POST /partners/{id}/leads` `count` times with `concurrency` in flight; resolves to the ids in order. */
async function seedLeadsOverHttp(api, partnerId, count, run, options, concurrency = 32) {
  const started = Date.now();
  let done = 0;
  const url = `${api.url}/api/v1/vendors/partners/${partnerId}/leads`;
  const headers = { 'X-API-KEY': api.key };
  let retried = 0;
  const ids = await pool(count, concurrency, async (i) => {
    const lead = seedLead('Seed', i, run, options);
    let id;
    try {
      id = (await expectStatus(200, 'POST', url, { headers, body: lead })).data.id;
    } catch (error) {
      // a connection reset under load: try once more; if the first attempt did create the lead,
      // the second is a duplicate, and the lead is found by its email
      if (!error.code) throw error;
      retried++;
      const again = await request('POST', url, { headers, body: lead });
      if (again.status === 200) id = again.body.data.id;
      else {
        const found = await expectStatus(
          200,
          'GET',
          `${url}?keyword=${encodeURIComponent(lead.emailAddress)}`,
          {
            headers,
          },
        );
        const match = found.data.data.find((l) => l.emailAddress === lead.emailAddress);
        if (!match)
          throw new Error(`seeding lead ${i}: ${error.message}, then ${again.status}`, { cause: error });
        id = match.id;
      }
    }
    done++;
    if (done % 5000 === 0) process.stderr.write(`  ${done}/${count} leads\n`);
    return id;
  });
  if (retried > 0) process.stderr.write(`  (${retried} requests retried after a network error)\n`);
  const seconds = (Date.now() - started) / 1000;
  return { ids, seconds, rate: count / seconds };
}

/** Up to `max` lead ids of a partner, newest first (for runs against an existing partner). */
async function listLeadIds(api, partnerId, query, max) {
  const ids = [];
  for (let page = 0; ids.length < max; page++) {
    const body = await expectStatus(
      200,
      'GET',
      `${api.url}/api/v1/vendors/partners/${partnerId}/leads?perPage=100&page=${page}${query}`,
      { headers: { 'X-API-KEY': api.key } },
    );
    for (const lead of body.data.data) ids.push(lead.id);
    if (body.data.data.length < 100) break;
  }
  return ids.slice(0, max);
}

/** The number of leads of a partner (totalItems of page 0). */
async function countLeads(api, partnerId, query = '') {
  const body = await expectStatus(
    200,
    'GET',
    `${api.url}/api/v1/vendors/partners/${partnerId}/leads?perPage=1${query}`,
    { headers: { 'X-API-KEY': api.key }, timeoutMs: 120000 },
  );
  return body.data.totalItems;
}

/**
 * Streams `count` leads as NDJSON into `path` (one object per line: firstName, emailAddress and
 * companyName, plus a mix of statuses and sources; unique emails). Resolves to { bytes, seconds }.
 */
async function writeLeadsNdjson(path, count, tag, options) {
  const started = Date.now();
  const out = createWriteStream(path);
  const chunk = [];
  for (let i = 0; i < count; i++) {
    chunk.push(JSON.stringify(seedLead('Large', i, tag, options)));
    if (chunk.length === 1000 || i === count - 1) {
      if (!out.write(`${chunk.join('\n')}\n`)) await once(out, 'drain');
      chunk.length = 0;
    }
  }
  out.end();
  await once(out, 'finish');
  return { bytes: statSync(path).size, seconds: (Date.now() - started) / 1000 };
}

/**
 * Runs the bulk import of `file` into the partner; resolves to its output plus the wall-clock time.
 * Fails unless every line was imported.
 */
async function importLeads(cliPath, env, vendorId, partnerId, file, expected) {
  const started = Date.now();
  const output = await runCli(
    cliPath,
    ['leads:import', '--vendor', String(vendorId), '--partner', String(partnerId), '--file', file],
    env,
    { inheritStderr: true },
  );
  const wallSeconds = (Date.now() - started) / 1000;
  if (output.imported !== expected) {
    throw new Error(
      `leads:import imported ${output.imported} of ${expected} leads (rejected ${output.rejected}, see ${output.rejectedFile})`,
    );
  }
  return {
    ...output,
    wallSeconds,
    rate: output.imported / (Number(output.seconds) || wallSeconds),
  };
}

module.exports = {
  createPartner,
  seedLeadsOverHttp,
  listLeadIds,
  countLeads,
  writeLeadsNdjson,
  importLeads,
};
