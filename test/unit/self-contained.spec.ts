import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The repository explains itself (docs/README.md): nothing in it points at a document outside it,
 * and every rule a comment or a test cites (`D28`, `X13`) has its entry in docs/rules.md or
 * docs/extensions.md. The checks are plain functions, tested on samples first, then run over the
 * repository's own files.
 */

const ROOT = resolve(__dirname, '..', '..');

/** The rule sets and how many each holds at least (docs/rules.md, docs/extensions.md). */
const RULE_SETS = [
  { letter: 'D', doc: 'docs/rules.md', count: 41 },
  { letter: 'X', doc: 'docs/extensions.md', count: 21 },
] as const;

// Written in pieces so that this file does not contain what it looks for.
const OUTSIDE_DOCUMENTS = [['shared', 'spec'].join('/'), ['STYLE', 'md'].join('.')];
/** One or more `../` steps, then a folder named `shared`: the whole run of steps is captured. */
const PARENT_SHARED = /(?<![\w./-])((?:\.\.\/)+)shared\//g;

interface Finding {
  file: string;
  line: number;
  text: string;
}

function lineOf(content: string, index: number): number {
  return content.slice(0, index).split('\n').length;
}

/**
 * References to documents outside the repository: the folder the contract and the style guide used
 * to live in (OUTSIDE_DOCUMENTS), and any path of `../` steps to a `shared` folder that, read from
 * the file's own folder, leaves the repository or names no folder in it. An import in
 * `src/vendors/` one step up to `shared` reaches `src/shared`: fine. The same path in the README at
 * the root leaves the repository.
 */
function outsideReferences(file: string, content: string, root = ROOT): Finding[] {
  const found: Finding[] = [];
  for (const needle of OUTSIDE_DOCUMENTS) {
    for (let at = content.indexOf(needle); at !== -1; at = content.indexOf(needle, at + 1)) {
      found.push({ file, line: lineOf(content, at), text: needle });
    }
  }
  for (const match of content.matchAll(PARENT_SHARED)) {
    const target = resolve(root, dirname(file), match[1]!, 'shared');
    const inside = relative(root, target);
    const escapes = inside.startsWith('..') || isAbsolute(inside);
    if (escapes || !existsSync(target) || !statSync(target).isDirectory()) {
      found.push({ file, line: lineOf(content, match.index), text: match[0] });
    }
  }
  return found;
}

/** `D28` / `X13` as words: not `0xD1`, not `D1x`, not `ID12`. */
const CITATION = /\b([DX])([1-9][0-9]?)\b/g;

/**
 * Rule numbers cited in `content` that have no entry. Only numbers within a rule set's range (up to
 * the highest entry it has) count as citations: a `D7` in a base64 sample is harmless, since `D7`
 * has an entry, while a `D77` there is most likely not a citation at all.
 */
function undocumentedCitations(
  file: string,
  content: string,
  entries: Record<string, Set<number>>,
): Finding[] {
  const found: Finding[] = [];
  for (const match of content.matchAll(CITATION)) {
    const letter = match[1]!;
    const number = Number(match[2]);
    const set = RULE_SETS.find((s) => s.letter === letter)!;
    const defined = entries[letter] ?? new Set<number>();
    const highest = Math.max(set.count, ...defined);
    if (number <= highest && !defined.has(number)) {
      found.push({ file, line: lineOf(content, match.index), text: match[0] });
    }
  }
  return found;
}

/**
 * The entries of a rules document: an explicit anchor `<a id="d28"></a>` (the link target
 * `docs/rules.md#d28`, whatever the heading's title) directly followed by the heading `### D28 — ...`.
 */
function entriesOf(letter: string, markdown: string): number[] {
  const lower = letter.toLowerCase();
  const pattern = new RegExp(
    `^<a id="${lower}([1-9][0-9]?)"></a>\\n#{2,4} ${letter}([1-9][0-9]?) — \\S`,
    'gm',
  );
  const numbers: number[] = [];
  for (const match of markdown.matchAll(pattern)) {
    if (match[1] === match[2]) numbers.push(Number(match[1]));
  }
  return numbers;
}

/** Relative links of a markdown file (`[text](path#anchor)`) whose file does not exist. */
function brokenLinks(file: string, content: string, root = ROOT): Finding[] {
  const found: Finding[] = [];
  for (const match of content.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    const path = decodeURIComponent(target.split('#')[0]!);
    const absolute = resolve(root, dirname(file), path);
    const inside = relative(root, absolute);
    if (inside.startsWith('..') || isAbsolute(inside) || !existsSync(absolute)) {
      found.push({ file, line: lineOf(content, match.index), text: target });
    }
  }
  return found;
}

/**
 * Imports in a file of src/ that reach into test/: the product must build and run without its tests,
 * so test doubles and object mothers live in test/support and only tests import them.
 */
function importsOfTests(file: string, content: string, root = ROOT): Finding[] {
  if (!file.startsWith('src/')) return [];
  const found: Finding[] = [];
  const specifiers = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;
  for (const match of content.matchAll(specifiers)) {
    const specifier = match[1]!;
    if (!specifier.startsWith('.')) continue;
    const inside = relative(root, resolve(root, dirname(file), specifier))
      .split(sep)
      .join('/');
    if (inside === 'test' || inside.startsWith('test/')) {
      found.push({ file, line: lineOf(content, match.index), text: specifier });
    }
  }
  return found;
}

const SKIPPED = [/^node_modules\//, /^dist\//, /(^|\/)package-lock\.json$/, /\/node_modules\//];

/** Every file of the repository: tracked, or new and not ignored; without git, a walk of the tree. */
function repositoryFiles(): string[] {
  let files: string[];
  try {
    files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .split('\0')
      .filter(Boolean);
  } catch {
    files = walk(ROOT);
  }
  return files.filter((f) => !SKIPPED.some((p) => p.test(f)) && existsSync(join(ROOT, f)));
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (['.git', 'node_modules', 'dist', 'coverage', 'data'].includes(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(relative(ROOT, path).split(sep).join('/'));
  }
  return out;
}

/** The text of a file, or null for a binary one. */
function textOf(file: string): string | null {
  const buffer = readFileSync(join(ROOT, file));
  return buffer.includes(0) ? null : buffer.toString('utf8');
}

const show = (findings: Finding[]) => findings.map((f) => `${f.file}:${f.line}: ${f.text}`);

describe('the checks themselves', () => {
  // Samples are assembled at run time: this file is scanned with the rest of the repository.
  const parent = (levels: number) => `${'../'.repeat(levels)}${'shared'}/`;
  const spec = ['shared', 'spec'].join('/');
  const style = ['STYLE', 'md'].join('.');

  it('finds a reference to the contract outside the repository', () => {
    expect(outsideReferences('README.md', `The contract is in ${parent(1)}spec/api.md.`)).not.toEqual([]);
    expect(outsideReferences('docs/x.md', `see ${style}`)).not.toEqual([]);
    expect(outsideReferences('docs/x.md', `see the decisions in ${spec}/decisions.md`)).not.toEqual([]);
    expect(outsideReferences('README.md', `hexagons (see ${parent(1)}house-style.txt)`)).toHaveLength(1);
    expect(outsideReferences('src/leads/README.md', `as ${parent(3)}notes.md says`)).toHaveLength(1);
  });

  it('lets an import of src/shared through', () => {
    expect(outsideReferences('src/vendors/vendors.module.ts', `from '${parent(1)}application/x';`)).toEqual(
      [],
    );
    expect(outsideReferences('src/leads/domain/lead.ts', `from '${parent(2)}domain/text';`)).toEqual([]);
  });

  it('finds a cited rule without an entry, and nothing else', () => {
    const entries = { D: new Set([1, 2, 28]), X: new Set([13]) };
    expect(show(undocumentedCitations('a.ts', '// D28, X13 and D2', entries))).toEqual([]);
    expect(show(undocumentedCitations('a.ts', '// why (D3)\n// and X14', entries))).toEqual([
      'a.ts:1: D3',
      'a.ts:2: X14',
    ]);
    expect(show(undocumentedCitations('a.ts', "const hex = 0xD1; const ID12 = 'D1x'; D99", entries))).toEqual(
      [],
    );
  });

  it('reads entries only where the anchor and the heading agree', () => {
    const doc = [
      '<a id="d1"></a>',
      '### D1 — Datetimes',
      '',
      '<a id="d2"></a>',
      '### D3 — wrong number',
      '',
      '### D4 — no anchor',
    ].join('\n');
    expect(entriesOf('D', doc)).toEqual([1]);
  });

  it('finds an import of test/ code in src/, and nothing else', () => {
    const support = ['..', '..', '..', 'test', 'support', 'lead-mother'].join('/');
    expect(
      show(importsOfTests('src/leads/domain/x.spec.ts', `import { LeadMother } from '${support}';`)),
    ).toEqual([`src/leads/domain/x.spec.ts:1: ${support}`]);
    expect(show(importsOfTests('src/a.ts', `const m = require('../test/support/x');`))).toHaveLength(1);
    expect(
      importsOfTests('src/leads/domain/x.ts', `import { foldCase } from '${parent(2)}domain/text';`),
    ).toEqual([]);
    expect(
      importsOfTests('test/unit/x.spec.ts', `import { LeadMother } from '../support/lead-mother';`),
    ).toEqual([]);
  });

  it('finds a relative link to a file that does not exist', () => {
    expect(brokenLinks('docs/x.md', '[rules](rules.md#d1) [web](https://example.com) [top](#top)')).toEqual(
      [],
    );
    expect(show(brokenLinks('docs/x.md', 'see [it](../nowhere.md)'))).toEqual(['docs/x.md:1: ../nowhere.md']);
  });
});

describe('the repository explains itself', () => {
  const files = repositoryFiles();
  const texts = new Map<string, string>();
  for (const file of files) {
    const text = textOf(file);
    if (text !== null) texts.set(file, text);
  }
  const entries: Record<string, Set<number>> = {};
  for (const set of RULE_SETS) entries[set.letter] = new Set(entriesOf(set.letter, texts.get(set.doc) ?? ''));

  it('sees the repository (git ls-files or a walk of the tree)', () => {
    expect(texts.has('README.md')).toBe(true);
    expect(texts.has('src/main.ts')).toBe(true);
    expect(texts.has('test/unit/self-contained.spec.ts')).toBe(true);
  });

  it.each(RULE_SETS)('$doc has one linkable entry for each number from 1 to at least $count', (set) => {
    const numbers = entriesOf(set.letter, texts.get(set.doc) ?? '');
    const expected = Array.from({ length: Math.max(set.count, ...numbers) }, (_, i) => i + 1);
    expect([...numbers].sort((a, b) => a - b)).toEqual(expected);
  });

  it('refers to no document outside the repository', () => {
    const found = [...texts].flatMap(([file, text]) => outsideReferences(file, text));
    expect(show(found)).toEqual([]);
  });

  it('has an entry in docs/rules.md or docs/extensions.md for every rule cited in src/ and test/', () => {
    const found = [...texts]
      .filter(([file]) => file.startsWith('src/') || file.startsWith('test/'))
      .flatMap(([file, text]) => undocumentedCitations(file, text, entries));
    expect(show(found)).toEqual([]);
  });

  it('has no file in src/ that imports from test/', () => {
    const found = [...texts].flatMap(([file, text]) => importsOfTests(file, text));
    expect(show(found)).toEqual([]);
  });

  it('has markdown links that lead to files of the repository', () => {
    const found = [...texts]
      .filter(([file]) => file.endsWith('.md'))
      .flatMap(([file, text]) => brokenLinks(file, text));
    expect(show(found)).toEqual([]);
  });
});
