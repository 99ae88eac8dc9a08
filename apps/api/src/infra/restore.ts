import { existsSync, openAsBlob, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { LOCK_FILE, lockDataDir } from '../db/data-dir-lock';
import { makeDataDirPrivate, restrictToOwner } from '../db/data-dir-privacy';
import {
  BackupError,
  type BackupManifest,
  DATABASE_ENTRY,
  knownMigrations,
  readBackup,
  readDatabaseState,
} from './backup';
import { CONTROL_FILE } from './backup-control';

/** What a restore replaces in a data folder (the token secret too: the backup holds none). */
const REPLACED = ['pglite', 'objects', 'jwt-secret', CONTROL_FILE];

/** What a fresh volume may hold and still count as empty. */
const IGNORED = new Set(['lost+found']);

export type RestoreResult = {
  manifest: BackupManifest;
  /** Rows of the counted tables, counted in the restored database. */
  rows: Record<string, number>;
  /** Where the data folder's previous database and images were moved (with --force), or null. */
  movedAside: string | null;
};

async function contentsOf(dataDir: string): Promise<string[]> {
  try {
    return (await readdir(dataDir)).filter((name) => !IGNORED.has(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Refuses a backup whose schema this version of the console does not know. */
function checkMigrations(file: string, manifest: BackupManifest): void {
  const known = knownMigrations().map((entry) => entry.tag);
  const unknown = manifest.lastMigration !== null && !known.includes(manifest.lastMigration);
  if (unknown || manifest.migrations > known.length) {
    throw new BackupError(
      `${file} was written by a newer version of the console (its database has migration ` +
        `${manifest.lastMigration}, which this version does not know). Restore it with that version or a newer one.`,
    );
  }
}

/**
 * Opens the database's copy in a folder of its own (PGlite writes it there) and counts its rows;
 * a copy that does not open, or does not hold what its description says, is refused.
 */
async function loadDatabase(file: string, tar: string, folder: string, manifest: BackupManifest) {
  let pglite: PGlite;
  try {
    pglite = await PGlite.create(folder, { loadDataDir: await openAsBlob(tar), extensions: { pg_trgm } });
  } catch (error) {
    throw new BackupError(`The database in ${file} could not be opened: ${(error as Error).message}`);
  }
  try {
    const { rows } = await readDatabaseState(
      async (text) => (await pglite.query<Record<string, unknown>>(text)).rows,
    );
    for (const [table, count] of Object.entries(manifest.rows)) {
      if (rows[table] !== count) {
        throw new BackupError(
          `${file} is damaged: its database holds ${rows[table] ?? 'no'} rows of ${table}, its description says ${count}.`,
        );
      }
    }
    return rows;
  } finally {
    await pglite.close();
  }
}

/**
 * Restores a backup into a data folder: an empty one, or with `force` one whose database and
 * images are then moved aside (never deleted). Everything is read, checked and loaded in a
 * folder beside them first, and renamed into place only when all of it succeeded: a damaged
 * backup changes nothing. The data folder is locked meanwhile, as a server locks it.
 */
export async function restoreBackup(options: {
  file: string;
  dataDir: string;
  force: boolean;
}): Promise<RestoreResult> {
  const { file, dataDir, force } = options;
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  if (!statSync(file).isFile()) throw new BackupError(`${file} is not a backup file.`);
  const existed = existsSync(dataDir);
  const refuse = (found: string[]) => {
    if (found.length > 0 && !force) {
      throw new BackupError(
        `${dataDir} is not empty (it holds ${found.join(', ')}). Restore into an empty folder (DATA_DIR), ` +
          'or add --force to replace its database and images (they are moved aside, not deleted).',
      );
    }
  };
  refuse(await contentsOf(dataDir));
  // Throws, naming the process, while a server (or a tool) holds the folder.
  const unlock = lockDataDir(dataDir);
  let work: string | null = null;
  try {
    refuse((await contentsOf(dataDir)).filter((name) => name !== LOCK_FILE));
    makeDataDirPrivate(dataDir);
    work = await mkdtemp(join(dataDir, '.restore-'));
    const manifest = await readBackup(file, work);
    checkMigrations(file, manifest);
    const rows = await loadDatabase(file, join(work, DATABASE_ENTRY), join(work, 'pglite'), manifest);

    let movedAside: string | null = null;
    const present = REPLACED.filter((name) => existsSync(join(dataDir, name)));
    if (present.length > 0) {
      movedAside = join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
      await mkdir(movedAside, { mode: 0o700 });
      for (const name of present) await rename(join(dataDir, name), join(movedAside, name));
    }
    await rename(join(work, 'pglite'), join(dataDir, 'pglite'));
    if (manifest.images !== null) await rename(join(work, 'objects'), join(dataDir, 'objects'));
    // PGlite loads the copy with its files 0666 (it sets their modes itself, past the umask).
    restrictToOwner(dataDir);
    return { manifest, rows, movedAside };
  } finally {
    if (work) await rm(work, { recursive: true, force: true });
    unlock();
    // A folder made for a restore that failed is not left behind.
    if (!existed) await rmdir(dataDir).catch(() => {});
  }
}
