#!/usr/bin/env node
// Writes a file of valid leads for `leads:import` measurements (docs/bulk-import.md):
//   node bench/make-leads-file.js <rows> <path ending in .ndjson, .jsonl or .csv>
// Every row is valid and its email unique; the file is written in blocks, never held whole.
'use strict';
const fs = require('node:fs');

const [rows, path] = [Number(process.argv[2]), process.argv[3]];
if (!Number.isSafeInteger(rows) || rows < 0 || !/\.(ndjson|jsonl|csv)$/.test(path || '')) {
  process.stderr.write('usage: node bench/make-leads-file.js <rows> <file.ndjson|file.jsonl|file.csv>\n');
  process.exit(2);
}
const csv = path.endsWith('.csv');
const cities = ['London', 'Paris', 'Berlin', 'Madrid', 'Rome', 'Vienna'];
const fd = fs.openSync(path, 'w');
let block = csv
  ? ['firstName,lastName,emailAddress,companyName,phoneNumber,jobTitle,city,country,leadAge,productsInterested,externalId\n']
  : [];
for (let i = 0; i < rows; i++) {
  const lead = {
    firstName: `First${i}`,
    lastName: `Last${i % 1000}`,
    emailAddress: `lead${i}.${(i * 7919) % 100003}@example${i % 97}.test`,
    companyName: `Company ${i % 5000}`,
    phoneNumber: `+1 555 ${String(i).padStart(7, '0')}`,
    jobTitle: 'Buyer',
    city: cities[i % cities.length],
    country: 'EU',
    leadAge: i % 365,
    productsInterested: 'Widgets, gadgets and the premium support plan',
    externalId: `crm-${i}`,
  };
  block.push(
    csv
      ? `${Object.values(lead)
          .map((v) => (String(v).includes(',') ? `"${v}"` : v))
          .join(',')}\n`
      : `${JSON.stringify(lead)}\n`,
  );
  if (block.length >= 10000) {
    fs.writeSync(fd, block.join(''));
    block = [];
  }
}
fs.writeSync(fd, block.join(''));
fs.closeSync(fd);
