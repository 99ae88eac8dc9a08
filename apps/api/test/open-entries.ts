import { lstatSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The entries under `root` (itself included) that other local users may read, write or enter, as
 * "mode path": a private data folder has none. Modes are read, not tried: root reads anything.
 */
export function findEntriesOpenToOthers(root: string): string[] {
  const open: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.mode & 0o077) open.push(`${(stat.mode & 0o7777).toString(8)} ${relative(root, path) || '.'}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return open;
}

/** How many entries `root` holds, itself included. */
export function countEntries(root: string): number {
  const stat = lstatSync(root);
  if (!stat.isDirectory()) return 1;
  return 1 + readdirSync(root).reduce((sum, name) => sum + countEntries(join(root, name)), 0);
}
