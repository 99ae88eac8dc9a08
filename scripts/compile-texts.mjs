// Compiles the text catalogues (packages/shared/messages/{en,hi}.json) into one typed function per
// text (packages/shared/src/paraglide, not committed). The web build carries only the texts each
// screen uses; the API calls the same functions in the language of each request.
import { compile } from '@inlang/paraglide-js';
import { fileURLToPath } from 'node:url';

export const TEXTS_OPTIONS = {
  project: fileURLToPath(new URL('../packages/shared/project.inlang', import.meta.url)),
  outdir: fileURLToPath(new URL('../packages/shared/src/paraglide', import.meta.url)),
  // Before sign-in the browser remembers the language; English is the default for everyone else.
  strategy: ['localStorage', 'baseLocale'],
  // The same key as LANGUAGE_STORAGE_KEY of packages/shared/src/boot-script.ts.
  localStorageKey: 'bmet-language',
  emitTsDeclarations: true,
  emitReadme: false,
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await compile(TEXTS_OPTIONS);
  // The inlang SDK leaves a timer running for half a minute after the work is done.
  process.exit(0);
}
