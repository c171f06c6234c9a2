import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/**
 * The documentation can be walked from the front door: docs/README.md links every document of docs/,
 * and every relative link of the top-level documents (README.md, CONTRIBUTING.md, ...) and of docs/
 * leads to a file of the repository and, when it names an anchor in a markdown file, to a heading or
 * an `<a id>` there. As in self-contained.spec.ts, the checks are plain functions, tried on samples
 * first, then run over the repository's own files.
 */

const ROOT = resolve(__dirname, '..', '..');

interface Finding {
  file: string;
  line: number;
  text: string;
}

const show = (findings: Finding[]) => findings.map((f) => `${f.file}:${f.line}: ${f.text}`);

interface Link {
  target: string;
  line: number;
}

/** The lines of a markdown text outside fenced code blocks (``` or ~~~), with their numbers. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opening = /^\s*(`{3,}|~{3,})/.exec(text);
    if (fence === null && opening) {
      fence = opening[1]!;
    } else if (fence !== null) {
      if (text.trim().startsWith(fence) && text.trim().replace(/[`~]/g, '') === '') fence = null;
    } else {
      lines.push({ text, line: index + 1 });
    }
  });
  return lines;
}

/** Inline links and images (`[text](target)`, `![alt](target "title")`) outside code. */
function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const { text, line } of proseLines(markdown)) {
    const withoutCode = text.replace(/`[^`]*`/g, '');
    for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line });
    }
  }
  return links;
}

/** A link to another site or a mail address, not to a file of the repository. */
const isExternal = (target: string) => /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * The anchor GitHub gives a heading: its text without markup, lower-cased, punctuation and symbols
 * dropped (letters, marks, digits, `_`, `-` and spaces stay), spaces turned into `-`.
 */
function slugOf(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown text defines: one per heading (repeated ones get `-1`, `-2`), and `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text } of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(text);
    if (heading) {
      const slug = slugOf(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const match of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(match[1]!);
  }
  return anchors;
}

/** The repository's file at a path relative to ROOT, or null when there is none. */
type ReadFile = (path: string) => string | null;

const readRepositoryFile: ReadFile = (path) => {
  const absolute = join(ROOT, path);
  if (!existsSync(absolute)) return null;
  return statSync(absolute).isDirectory() ? '' : readFileSync(absolute, 'utf8');
};

/**
 * Relative links of `file` (a path relative to ROOT) that lead nowhere: to no file or folder of the
 * repository, or to an anchor that the markdown file they name does not define.
 */
function brokenLinks(file: string, markdown: string, read: ReadFile = readRepositoryFile): Finding[] {
  const found: Finding[] = [];
  for (const { target, line } of linksOf(markdown)) {
    if (isExternal(target)) continue;
    const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
    let path = file;
    if (pathPart !== '') {
      const absolute = resolve(ROOT, dirname(file), decodeURIComponent(pathPart));
      path = relative(ROOT, absolute).split(sep).join('/');
      if (path.startsWith('..') || isAbsolute(path)) {
        found.push({ file, line, text: `${target} (outside the repository)` });
        continue;
      }
    }
    const content = pathPart === '' ? markdown : read(path);
    if (content === null) {
      found.push({ file, line, text: `${target} (no such file)` });
    } else if (anchor && extname(path) === '.md' && !anchorsOf(content).has(decodeURIComponent(anchor))) {
      found.push({ file, line, text: `${target} (no such anchor)` });
    }
  }
  return found;
}

/** The documents of docs/ (`docs/x.md`) that docs/README.md does not link to. */
function unindexed(documents: string[], index: string): string[] {
  const linked = new Set(
    linksOf(index)
      .filter((l) => !isExternal(l.target))
      .map((l) =>
        relative(ROOT, resolve(ROOT, 'docs', l.target.split('#')[0]!))
          .split(sep)
          .join('/'),
      ),
  );
  return documents.filter((d) => d !== 'docs/README.md' && !linked.has(d));
}

describe('the checks themselves', () => {
  it('slugs headings as GitHub does', () => {
    expect(slugOf('Reads beyond the twelve endpoints (X9–X12)')).toBe(
      'reads-beyond-the-twelve-endpoints-x9x12',
    );
    expect(slugOf('The document as a file: `docs/openapi.json`')).toBe(
      'the-document-as-a-file-docsopenapijson',
    );
    expect(slugOf('"Invite outstanding" means lastActiveAt is null')).toBe(
      'invite-outstanding-means-lastactiveat-is-null',
    );
    expect(slugOf('Batches, interruptions, running again')).toBe('batches-interruptions-running-again');
    expect(slugOf('The reference page: `/docs` (X14)')).toBe('the-reference-page-docs-x14');
    expect(slugOf('See [the rules](rules.md)')).toBe('see-the-rules');
  });

  it('finds the anchors of headings, repeated headings and <a id>, and none inside code', () => {
    const doc = [
      '# Title',
      '## Usage',
      '## Usage',
      '<a id="d28"></a>',
      '### D28 — Duplicates',
      '```bash',
      '# a comment, not a heading',
      '```',
    ].join('\n');
    expect([...anchorsOf(doc)].sort()).toEqual(['d28', 'd28--duplicates', 'title', 'usage', 'usage-1']);
  });

  it('reads links outside code only', () => {
    const doc = 'See [a](a.md) and ![b](images/b.png "B").\n```\n[c](c.md)\n```\n`[d](d.md)` [e](<e.md>)';
    expect(linksOf(doc).map((l) => l.target)).toEqual(['a.md', 'images/b.png', 'e.md']);
  });

  it('finds a link to a missing file or a missing anchor, and nothing else', () => {
    const files: Record<string, string> = {
      'docs/rules.md': '<a id="d1"></a>\n### D1 — Datetimes\n## Wire format',
    };
    const read: ReadFile = (path) => files[path] ?? (path === 'docs' ? '' : null);
    const doc = [
      '[rules](rules.md#d1) [format](rules.md#wire-format) [web](https://example.com/x.md#nowhere)',
      '[docs](../docs) [here](#top)',
      '# Top',
      '[gone](gone.md) [no anchor](rules.md#d2) [up](../../elsewhere.md) [nowhere](#bottom)',
    ].join('\n');
    expect(show(brokenLinks('docs/x.md', doc, read))).toEqual([
      'docs/x.md:4: gone.md (no such file)',
      'docs/x.md:4: rules.md#d2 (no such anchor)',
      'docs/x.md:4: ../../elsewhere.md (outside the repository)',
      'docs/x.md:4: #bottom (no such anchor)',
    ]);
  });

  it('finds a document of docs/ that the index does not link', () => {
    const index = '| [api.md](api.md) | the API |\n[rules](rules.md#d28), [top](../README.md)';
    expect(unindexed(['docs/README.md', 'docs/api.md', 'docs/rules.md', 'docs/webhooks.md'], index)).toEqual([
      'docs/webhooks.md',
    ]);
  });
});

describe('the documentation can be walked from README.md', () => {
  const topLevel = readdirSync(ROOT)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const documents = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .sort();

  it('finds the documents', () => {
    expect(topLevel).toContain('README.md');
    expect(documents).toContain('docs/README.md');
    expect(documents).toContain('docs/api.md');
  });

  it('has every document of docs/ in docs/README.md', () => {
    expect(unindexed(documents, readFileSync(join(ROOT, 'docs', 'README.md'), 'utf8'))).toEqual([]);
  });

  it.each([...topLevel, ...documents])('%s has relative links that lead to a file and an anchor', (file) => {
    expect(show(brokenLinks(file, readFileSync(join(ROOT, file), 'utf8')))).toEqual([]);
  });
});
