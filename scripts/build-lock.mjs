// Builds of one checkout take turns, and skip what is up to date: two `npm start` (or a start and a
// test run) at once would otherwise empty the same output folder under each other.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import lockfile from 'proper-lockfile';

const SKIPPED = new Set(['node_modules', 'dist', 'paraglide', 'test-results', '.vite']);
const STAMP = '.inputs-hash';

function* filesUnder(path) {
  if (!existsSync(path)) return;
  if (!statSync(path).isDirectory()) {
    yield path;
    return;
  }
  const entries = readdirSync(path, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (SKIPPED.has(entry.name)) continue;
    const child = join(path, entry.name);
    if (entry.isDirectory()) yield* filesUnder(child);
    else if (entry.isFile()) yield child;
  }
}

/** A hash of the names and contents of every file under the inputs (files or folders). */
export function hashInputs(root, inputs) {
  const hash = createHash('sha256');
  for (const input of inputs) {
    for (const file of filesUnder(join(root, input))) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}

/** Whether the output folder was built from inputs of this hash (its stamp says so). */
export function isUpToDate(outdir, inputsHash) {
  const stamp = join(outdir, STAMP);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash;
}

/** Records the hash of the inputs an output folder was just built from. */
export function markUpToDate(outdir, inputsHash) {
  writeFileSync(join(outdir, STAMP), `${inputsHash}\n`);
}

/**
 * Runs `work` while holding the lock of `name` in the checkout (a folder `name.lock` at its root,
 * given up if its process dies: stale after 20 s without an update), waiting up to 10 minutes.
 */
export async function withBuildLock(root, name, work) {
  const release = await lockfile.lock(join(root, name), {
    realpath: false,
    stale: 20_000,
    retries: { retries: 600, factor: 1, minTimeout: 1_000, maxTimeout: 1_000 },
  });
  try {
    return await work();
  } finally {
    await release();
  }
}
