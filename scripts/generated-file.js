// Writes a file generated from the code, or (--check) says whether the committed one is still what
// the code produces. Shared by scripts/openapi.js and scripts/client.js.
'use strict';
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { dirname, join, relative, resolve } = require('node:path');

const root = join(__dirname, '..');

/** The first lines where two texts part, with a few lines of context, for the failure message. */
function firstDifference(committed, produced) {
  const a = committed.split('\n');
  const b = produced.split('\n');
  let line = 0;
  while (line < a.length && line < b.length && a[line] === b[line]) line++;
  const show = (lines, sign) =>
    lines
      .slice(line, line + 3)
      .map((text, i) => `  ${sign}${String(line + i + 1).padStart(6)} | ${text}`)
      .join('\n');
  return `first difference at line ${line + 1} (- committed, + produced):\n${show(a, '-')}\n${show(b, '+')}`;
}

/**
 * check false: writes `content` to `path`. check true: exits 1 with a message naming the command
 * that regenerates the file when the file is missing or differs; prints one line and returns when
 * it is current.
 */
function writeOrCheck(path, content, { check, command }) {
  const name = relative(root, path);
  if (!check) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    process.stdout.write(`wrote ${name}\n`);
    return;
  }
  if (!existsSync(path)) {
    process.stderr.write(`${name} is missing: run \`${command}\` and commit the file.\n`);
    process.exit(1);
  }
  const committed = readFileSync(path, 'utf8');
  if (committed !== content) {
    process.stderr.write(
      `${name} is out of date with the code: run \`${command}\` and commit the result.\n` +
        `${firstDifference(committed, content)}\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`${name} is up to date\n`);
}

/** Arguments of both scripts: `--check` and `--file <path>` (tests point it elsewhere). */
function parseArguments(argv, defaultFile) {
  const args = { check: false, file: defaultFile };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--check') args.check = true;
    else if (argv[i] === '--file' && argv[i + 1]) args.file = resolve(argv[++i]);
    else {
      process.stderr.write(`unknown argument ${argv[i]}; usage: [--check] [--file <path>]\n`);
      process.exit(2);
    }
  }
  return args;
}

module.exports = { parseArguments, writeOrCheck };
