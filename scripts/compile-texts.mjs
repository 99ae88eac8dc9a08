// Compiles the text catalogues (packages/shared/messages/{en,hi}.json) into one typed function per
// text (packages/shared/src/paraglide, not committed). The web build carries only the texts each
// screen uses; the API calls the same functions in the language of each request.
import { compile } from '@inlang/paraglide-js';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hashInputs, isUpToDate, markUpToDate, withBuildLock } from './build-lock.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

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
  // Every entry script compiles the texts, and several may run at once (a start beside a test
  // run): they take turns, and only a change of the catalogues, the options or Paraglide compiles.
  await withBuildLock(root, '.texts', async () => {
    const inputs = hashInputs(root, [
      'packages/shared/messages',
      'packages/shared/project.inlang/settings.json',
      'scripts/compile-texts.mjs',
      'node_modules/@inlang/paraglide-js/package.json',
    ]);
    if (existsSync(TEXTS_OPTIONS.outdir) && isUpToDate(TEXTS_OPTIONS.outdir, inputs)) return;
    await compile(TEXTS_OPTIONS);
    markUpToDate(TEXTS_OPTIONS.outdir, inputs);
  });
  // The inlang SDK leaves a timer running for half a minute after the work is done.
  process.exit(0);
}
