// @ts-check
/**
 * The rules between modules (docs/architecture.md, "Between modules"), checked by `npm run lint`.
 * The rules between layers inside a module are ESLint's (eslint.config.mjs).
 * test/unit/module-boundaries.spec.ts runs this file on fixtures, so a rule that stops firing fails a test.
 */
const MODULES = '(vendors|partners|leads|contacts|mail|idempotency|webhooks)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-deep-import-into-another-module',
      comment:
        "A module reaches another only through the other's public face, its index.ts " +
        '(docs/architecture.md, "Between modules").',
      severity: 'error',
      from: { path: '^src/([^/]+)/' },
      to: { path: `^src/${MODULES}/`, pathNot: ['^src/$1/', `^src/${MODULES}/index\\.ts$`] },
    },
    {
      name: 'composition-root-uses-public-faces',
      comment:
        'The composition root (the files at the top of src/) joins modules through their public faces, ' +
        'like any other module (docs/architecture.md, "Between modules").',
      severity: 'error',
      from: { path: '^src/[^/]+\\.ts$' },
      to: { path: `^src/${MODULES}/`, pathNot: `^src/${MODULES}/index\\.ts$` },
    },
    {
      name: 'shared-imports-no-module',
      comment:
        'shared/ is what every module may use, so it imports no module and not the composition root ' +
        '(docs/architecture.md, "Between modules").',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { path: [`^src/${MODULES}/`, '^src/[^/]+\\.ts$'] },
    },
    {
      name: 'no-import-of-own-public-face',
      comment:
        "A module's files import each other directly, never through their own index.ts: that would " +
        'load the whole module from inside it, and a cycle leaves classes undefined at start.',
      severity: 'error',
      from: { path: `^src/${MODULES}/.+` },
      to: { path: '^src/$1/index\\.ts$' },
    },
    {
      name: 'no-circular',
      comment:
        'No file reaches itself through its imports, type-only ones included: a cycle between modules ' +
        'ties them into one (neither can change, load or be tested without the other), and at run time ' +
        'one side of it sees the other half-loaded. Events go the other way, through the DomainEvents ' +
        'port of shared/ (docs/architecture.md, "Between modules").',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/' },
    // type-only imports count too: a type is as much a part of a module's internals as a class
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
