// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'dist-bench/**', 'node_modules/**', 'coverage/**', 'data/**', 'clients/typescript/dist/**'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'error',
    },
  },
  {
    // docs/architecture.md: domain code is plain TypeScript, free of frameworks, so it can be read and tested alone.
    files: ['src/**/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*'], message: 'domain/ must not depend on NestJS' },
            { group: ['typeorm', 'typeorm/*'], message: 'domain/ must not depend on TypeORM' },
            { group: ['class-validator', 'class-transformer'], message: 'domain/ must not depend on validation libraries' },
            { group: ['**/infrastructure/**', '**/http/**', '**/application/**'], message: 'domain/ is the innermost layer' },
          ],
        },
      ],
    },
  },
  {
    // Use cases speak to ports, never to adapters or HTTP.
    files: ['src/**/application/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['typeorm', 'typeorm/*'], message: 'application/ uses ports, not TypeORM' },
            { group: ['**/infrastructure/**', '**/http/**'], message: 'application/ must not import adapters or HTTP code' },
          ],
        },
      ],
    },
  },
  {
    // docs/architecture.md, "No library internals": a minor upgrade of a library may change or drop
    // any member it does not document, silently. Underscore-prefixed members are private by
    // convention; the others are the undocumented ones this code once reached.
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^_/]',
          message: 'An underscore-prefixed member is a library internal: use its public API.',
        },
        {
          selector: 'MemberExpression[property.value=/^_/]',
          message: 'An underscore-prefixed member is a library internal: use its public API.',
        },
        {
          selector: 'MemberExpression[property.name=/^(databaseConnection|als|connectionsCheckingInterval|requireHostHeader)$/]',
          message: 'An undocumented member of TypeORM, nestjs-cls or node:http: use the public API.',
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.js', 'bench/**/*.js', 'test/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly', __dirname: 'readonly', module: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', setImmediate: 'readonly', Atomics: 'readonly', SharedArrayBuffer: 'readonly', Int32Array: 'readonly', fetch: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: { 'no-console': 'off' },
  },
);
