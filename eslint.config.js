import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

/*
 * The boundaries a reader relies on (docs/architecture.md, "What the linter enforces"). One rule carries them all,
 * so each layer's block repeats the ones every file keeps: ESLint keeps a rule's options from the last block
 * that matches a file, it does not merge them.
 */
const MATERIAL_WRITES = [
  'insertMaterial',
  'transitionMaterial',
  'completePendingUpload',
  'patchProcessingMetadata',
  'attachOriginalRow',
  'touchProcessing',
  'recordObject',
  'forgetObjects',
  'replacePassages',
  'deletePassages',
];
const lifecycleOwnsWrites = {
  paths: [
    {
      name: '@quire/db',
      importNames: MATERIAL_WRITES,
      message: "A material's row is written only by @quire/lifecycle: call one of its steps instead.",
    },
    {
      name: '@quire/webhooks',
      importNames: ['recordMaterialEvent'],
      message: "A material's webhook events are recorded by @quire/lifecycle, in the transaction of its move.",
    },
  ],
  patterns: [
    {
      group: ['**/lifecycle/src/*', '@quire/lifecycle/src/*'],
      message: 'Import @quire/lifecycle (its steps), not its modules: the material writes stay inside it.',
    },
  ],
};
const seedOnlyThroughTestkit = {
  group: ['@quire/lifecycle/seed'],
  message:
    'Tests and benchmarks seed materials through @quire/testkit (seedMaterial, seedMaterials, seedMove, seedPassages).',
};
const restrictImports = (extra = {}) => [
  'error',
  {
    paths: [...lifecycleOwnsWrites.paths, ...(extra.paths ?? [])],
    patterns: [...lifecycleOwnsWrites.patterns, ...(extra.patterns ?? [])],
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'packages/client/src/schema.ts',
      'apps/api/src/routes/docs-assets/**',
      'bench-results/**',
      'test-artifacts/**',
      'dist/**',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.lint.json', tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Type-aware: promises must be awaited or handled, and only thenables awaited.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // Express 5 handles a rejected async handler itself, so passing one where a void callback goes is fine.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // `typeof import('x')` stays allowed: it types a module that is loaded lazily on purpose.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Tests read JSON bodies as any on purpose; the OpenAPI checker validates them.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    ignores: ['packages/lifecycle/**', 'packages/testkit/**'],
    rules: { 'no-restricted-imports': restrictImports({ patterns: [seedOnlyThroughTestkit] }) },
  },
  {
    files: ['packages/testkit/**/*.ts'],
    rules: { 'no-restricted-imports': restrictImports() },
  },
  {
    // Routes parse, call a service and shape the answer: queries belong to services and repositories.
    files: ['apps/api/src/routes/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        patterns: [
          seedOnlyThroughTestkit,
          { group: ['kysely'], message: 'Routes never touch Kysely: call a service.' },
        ],
      }),
    },
  },
  {
    // Services take plain typed inputs: nothing of Express's routing or middleware.
    files: ['apps/api/src/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrictImports({
        patterns: [
          seedOnlyThroughTestkit,
          { group: ['**/routes/*', '**/middleware/*'], message: 'Services import no routes or middleware.' },
        ],
      }),
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', setInterval: 'readonly', clearInterval: 'readonly' },
    },
  },
  prettier,
);
