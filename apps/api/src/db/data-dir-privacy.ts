import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

/**
 * The data folder holds the database (account emails, password hashes, personal data in the WAL)
 * and the drivers' document images: no other local user may read or change any of it.
 */
const OTHERS = 0o077;

/**
 * Takes every permission of group and others off `root` and everything under it (folders end
 * 0700, files 0600 when they were 0755 and 0644 or 0666); answers how many entries changed.
 * Symbolic links are left alone: chmod would follow them out of the folder.
 */
export function restrictToOwner(root: string): number {
  let changed = 0;
  const visit = (path: string) => {
    let stat;
    try {
      stat = lstatSync(path);
    } catch (error) {
      // Removed meanwhile (a temporary file of the database): nothing left to protect.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (stat.isSymbolicLink()) return;
    if (stat.mode & OTHERS) {
      try {
        chmodSync(path, stat.mode & 0o7700);
        changed++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = readdirSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) visit(join(path, name));
  };
  visit(root);
  return changed;
}

/**
 * Makes what this process creates from now on private to its user. The mask is the process's, so
 * it covers PGlite's thread as well; Node refuses to set it from a worker thread, where the
 * explicit modes and restrictToOwner still hold.
 */
function createPrivately(): void {
  if (isMainThread) process.umask(OTHERS);
}

/**
 * Makes a data folder private to the server's user before anything uses it: created 0700, and an
 * existing one whose modes let other users in is fixed, with one warning that says so. Every
 * opener of a data folder (the server and each command, through openDatabase; a restore) calls it.
 */
export function makeDataDirPrivate(dataDir: string, warn: (message: string) => void = console.warn): void {
  createPrivately();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const changed = restrictToOwner(dataDir);
  if (changed > 0) {
    warn(
      `Warning: the data folder ${dataDir} was open to other local users: ${changed} ` +
        `${changed === 1 ? 'entry' : 'entries'} made private to this user (folders 0700, files 0600).`,
    );
  }
}
