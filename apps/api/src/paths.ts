import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of the API's package.json, found by walking up from this module: the same whether it
 * runs from src/ (tsx, tests) or bundled into dist/ (npm start), where every module shares one
 * file and a path relative to the module's own would point elsewhere.
 */
function findApiRoot(): string {
  let folder = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(folder, 'drizzle.config.ts'))) {
    const parent = dirname(folder);
    if (parent === folder)
      throw new Error('The API package (apps/api) was not found above ' + import.meta.url);
    folder = parent;
  }
  return folder;
}

export const API_ROOT = findApiRoot();

/** The repository root, so that ./data means the same folder whichever workspace runs the script. */
export const REPO_ROOT = resolve(API_ROOT, '../..');

/** The SQL migrations: read at run time from the sources, which ship with the compiled server. */
export const MIGRATIONS = join(API_ROOT, 'src/db/migrations');
