import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // A feature never imports another feature: what two need moves to lib/ or components/.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../features/*', '../features/*', '**/features/*/**'],
              message: 'Features are bounded: move shared code to lib/ or components/.',
            },
          ],
        },
      ],
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
    files: ['apps/web/src/app/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
