#!/usr/bin/env node
// `npm start` builds first when dist/ is missing or older than any file under src/.
'use strict';
const { execSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const root = join(__dirname, '..');
const built = join(root, 'dist', 'main.js');
const sources = [join(root, 'src'), join(root, 'package.json'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json')];
const newestSource = Math.max(...sources.map((p) => (statSync(p).isDirectory() ? newestMtime(p) : statSync(p).mtimeMs)));
if (!existsSync(built) || statSync(built).mtimeMs < newestSource) {
  process.stderr.write('building dist/ ...\n');
  execSync('npm run build', { cwd: root, stdio: ['ignore', process.stderr, 'inherit'] });
}
