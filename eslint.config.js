import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** The repository's root: zones are written from it, wherever lint is run. */
const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'apps/api/src/db/migrations/**',
      'apps/web/public/**',
      'packages/shared/src/paraglide/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'apps/web/tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A feature never imports another feature: what two need moves to lib/ or components/.
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: webFeatureZones() }],
    },
  },
  {
    // Every text a user sees comes from the catalogues (packages/shared/messages): a literal in JSX
    // text or in a named attribute would stay English on a Hindi screen.
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': {
            include: [
              '^(aria-label|aria-description|title|placeholder|label|description|alt|error|message)$',
            ],
          },
          // Punctuation, symbols, e-mail addresses, the date format and the product's name read
          // the same in every language.
          words: {
            exclude: [
              '^[0-9!-/:-@[-`{-~\\s·…—–×₹“”]+$',
              '^[\\w.+-]+@[\\w.-]+$',
              '^DD/MM/YYYY$',
              '^Book-My-ETaxi$',
            ],
          },
          callees: { exclude: ['can', 'navigate', 'useNavigate', 'startsWith', 'includes'] },
          message: 'Put this text in the catalogues (packages/shared/messages) and use m.<key>()',
        },
      ],
    },
  },
  {
    // The API's floors: each imports only from the floors below it, and nothing goes round in a
    // circle. db <- infra <- lib <- plugins <- modules <- app, with the server, the commands, the
    // import and the seed on top; tests and their helpers stand outside the floors.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'apps/api/tsconfig.json' })],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { basePath: ROOT, zones: apiFloors() }],
    },
  },
);

/**
 * The zones of apps/api that may not import others: each floor of src every floor above it, and
 * nothing of src the test helpers, the fuzzing or the benchmarks (only tests import helpers).
 */
function apiFloors() {
  const src = (path) => `./apps/api/src/${path}`;
  const outside = ['./apps/api/test', './apps/api/fuzz', './apps/api/bench'];
  const top = ['app.ts', 'server.ts', 'cli', 'import', 'firebase-link', 'seed'].map(src);
  const floors = ['db', 'infra', 'lib', 'plugins', 'modules'];
  return [
    ...floors.map((floor, index) => ({
      target: src(floor),
      from: [...floors.slice(index + 1).map(src), ...top],
      message: `${floor}/ stands below ${[...floors.slice(index + 1), 'app'].join(', ')}: move what it needs down.`,
    })),
    {
      target: './apps/api/src',
      from: outside,
      message: 'Product code imports no test helper, fuzzing or benchmark: only tests do.',
    },
  ];
}

/** Each web feature may import no other feature (whatever the path's spelling). */
function webFeatureZones() {
  const features = './apps/web/src/features';
  return readdirSync(new URL(features, `file://${ROOT}/`), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => ({
      target: `${features}/${name}`,
      from: features,
      except: [`./${name}`],
      message: 'Features are bounded: move what two features need to lib/ or components/.',
    }));
}
