import { once } from 'node:events';
import { createReadStream, readFileSync } from 'node:fs';
import { mkdir, open, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack, type Pack } from 'tar-stream';
import { z } from 'zod';
import type { Database, SqlReader } from '../db/client';
import { MIGRATIONS } from '../paths';
import { createLocalObjectStore, PARTIAL_OBJECT } from './object-store';

/**
 * A backup of the embedded database: a gzipped tar holding `database.tar` (PGlite's copy of its
 * data folder), `objects/<key>` for each document image of the local object store, and last
 * `bmet-backup.json`, which describes what the archive holds once everything else is in it (a
 * file cut short has none, and is known as incomplete).
 */
export const BACKUP_FORMAT = 1;
export const MANIFEST_ENTRY = 'bmet-backup.json';
export const DATABASE_ENTRY = 'database.tar';
const OBJECTS_PREFIX = 'objects/';

/** The tables whose rows a backup counts: what an operator recognises, and checks after a restore. */
export const COUNTED_TABLES = ['accounts', 'drivers', 'customers', 'trips'] as const;

const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  createdAt: z.string(),
  /** Migrations applied to the database, and the tag of the last one (0007_accounts_language). */
  migrations: z.number().int().min(0),
  lastMigration: z.string().nullable(),
  /** Rows of COUNTED_TABLES in the copy. */
  rows: z.record(z.string(), z.number().int().min(0)),
  /** Document images in the archive; null when they live in an S3 bucket (backed up by its own means). */
  images: z.number().int().min(0).nullable(),
  /** Images the database names that were replaced or removed while the backup ran. */
  imagesChanged: z.array(z.string()),
});

export type BackupManifest = z.infer<typeof manifestSchema>;

/** A backup that cannot be written or read, said in words an operator can act on. */
export class BackupError extends Error {}

type Journal = { entries: { tag: string; when: number }[] };

/** The migrations this version of the console knows, in order. */
export function knownMigrations(): Journal['entries'] {
  return (JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as Journal).entries;
}

type DatabaseState = Pick<BackupManifest, 'migrations' | 'lastMigration' | 'rows'> & {
  /** Each image key the documents name, with the size they record. */
  images: Map<string, number | null>;
};

/**
 * Reads what a backup says of its database. Written for any schema this console has had: a
 * database stopped before some migrations is backed up as it is.
 */
export async function readDatabaseState(query: SqlReader): Promise<DatabaseState> {
  const tables = new Set(
    (
      await query(
        `select table_name::text as name from information_schema.tables where table_schema = 'public'`,
      )
    ).map((row) => String(row.name)),
  );
  const rows: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    if (tables.has(table))
      rows[table] = Number((await query(`select count(*)::int as n from ${table}`))[0]?.n);
  }
  let migrations = 0;
  let lastMigration: string | null = null;
  const [journal] = await query(`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
  if (journal?.name) {
    const applied = await query(
      'select created_at::text as at from drizzle.__drizzle_migrations order by created_at',
    );
    migrations = applied.length;
    // Drizzle records each migration by the time in its journal entry, which names its tag.
    const last = Number(applied.at(-1)?.at);
    lastMigration = applied.length
      ? (knownMigrations().find((entry) => entry.when === last)?.tag ?? `unknown (${last})`)
      : null;
  }
  const images = new Map<string, number | null>();
  // The images of the drivers' documents, and of the documents parked with a vehicle nobody drives.
  for (const table of ['driver_documents', 'vehicle_documents']) {
    if (!tables.has(table)) continue;
    const named = await query(
      `select object_key, max(size) as size from ${table} where object_key is not null group by object_key`,
    );
    for (const row of named) images.set(String(row.object_key), row.size === null ? null : Number(row.size));
  }
  return { migrations, lastMigration, rows, images };
}

/**
 * Adds one entry whose body is already in memory. An entry's failure (the archive destroyed when
 * its reader goes away) comes through the callback: the entry's own error event, unheard, would
 * end the process.
 */
function addEntry(archive: Pack, name: string, body: Uint8Array, mtime?: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    archive
      .entry({ name, size: body.byteLength, mode: 0o600, ...(mtime ? { mtime } : {}) }, body, (error) =>
        error ? reject(error) : resolve(),
      )
      .on('error', () => {});
  });
}

/** Adds the database's copy chunk by chunk, as the archive takes it (it may be large). */
async function addBlob(archive: Pack, name: string, blob: Blob): Promise<void> {
  let sink!: ReturnType<Pack['entry']>;
  const done = new Promise<void>((resolve, reject) => {
    sink = archive.entry({ name, size: blob.size, mode: 0o600 }, (error) =>
      error ? reject(error) : resolve(),
    );
  });
  sink.on('error', () => {}); // reported through the callback, as above
  for await (const chunk of blob.stream()) {
    if (!sink.write(chunk)) await once(sink, 'drain');
  }
  sink.end(null);
  await done;
}

/** Every image of a local object store, by key (images being written are not yet images). */
async function listObjects(root: string): Promise<string[]> {
  try {
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    return entries
      .filter((entry) => entry.isFile() && !PARTIAL_OBJECT.test(entry.name))
      .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
      .sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Copies the images into the archive; answers the size of each one copied. */
async function addObjects(archive: Pack, root: string): Promise<Map<string, number>> {
  const copied = new Map<string, number>();
  for (const key of await listObjects(root)) {
    let file;
    try {
      file = await open(join(root, key), 'r');
    } catch (error) {
      // Removed since it was listed: an image replaced by one of another type meanwhile.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      const [body, stats] = await Promise.all([file.readFile(), file.stat()]);
      await addEntry(archive, OBJECTS_PREFIX + key, body, stats.mtime);
      copied.set(key, body.byteLength);
    } finally {
      await file.close();
    }
  }
  return copied;
}

export type BackupSource = {
  database: Required<Pick<Database, 'dump'>>;
  /** The local object store's folder, or null when the images live in an S3 bucket. */
  objectsRoot: string | null;
};

/**
 * Writes a backup to `out`, whether the server runs (it streams it to the backup command) or not
 * (the command opens the database itself). The database is copied first, then the images: an
 * image is written before the row that names it commits, so the images copied after cover every
 * row of the copy.
 */
export async function writeBackup(source: BackupSource, out: Writable): Promise<BackupManifest> {
  const archive = pack();
  const written = pipeline(archive, createGzip(), out);
  // A reader that goes away ends the work at the next step rather than leaving it waiting.
  const failed = written.then(
    () => new Promise<never>(() => {}),
    (error: unknown) => Promise.reject(error),
  );
  failed.catch(() => {});
  const step = <T>(work: Promise<T>) => Promise.race([work, failed]);
  try {
    const createdAt = new Date().toISOString();
    const { tar, read: state } = await step(source.database.dump(readDatabaseState));
    await step(addBlob(archive, DATABASE_ENTRY, tar));
    const copied = source.objectsRoot ? await step(addObjects(archive, source.objectsRoot)) : null;
    const imagesChanged = copied
      ? [...state.images]
          .filter(
            ([key, size]) => copied.get(key) === undefined || (size !== null && copied.get(key) !== size),
          )
          .map(([key]) => key)
      : [];
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt,
      migrations: state.migrations,
      lastMigration: state.lastMigration,
      rows: state.rows,
      images: copied ? copied.size : null,
      imagesChanged,
    };
    await step(addEntry(archive, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 2) + '\n')));
    archive.finalize();
    await written;
    return manifest;
  } catch (error) {
    archive.destroy(error as Error);
    await written.catch(() => {});
    throw error;
  }
}

/** An image's key as a local store keeps it: a relative path that stays inside the store's folder. */
const isObjectKey = (key: string) =>
  key.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && !/[\\\0]/.test(part));

/** Runs a write of the extraction: its failure (a full disk) is this machine's, not the file's. */
async function writing<T>(folder: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new BackupError(`Could not write into ${folder}: ${(error as Error).message}`);
  }
}

async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

/** Why a file could not be read as a backup, from zlib's and the tar parser's words. */
function damage(file: string, error: unknown, entries: number): BackupError {
  if (error instanceof BackupError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const message = (error as Error).message ?? String(error);
  if (code === 'ENOENT') return new BackupError(`${file} does not exist.`);
  if (code === 'EISDIR') return new BackupError(`${file} is a folder, not a backup file.`);
  if (code === 'EACCES') return new BackupError(`${file} cannot be read (permission denied).`);
  if (code === 'Z_DATA_ERROR' && /header/i.test(message)) {
    return new BackupError(`${file} is not a console backup (not a gzip file).`);
  }
  // Whatever else goes wrong before the first entry: a gzip file of something else.
  if (entries === 0 && !code?.startsWith('Z_')) {
    return new BackupError(`${file} is not a console backup (not a tar archive inside).`);
  }
  if (code === 'Z_BUF_ERROR' || /unexpected end|premature/i.test(message)) {
    return new BackupError(
      `${file} is incomplete: it ends before the backup does (cut short while copied?).`,
    );
  }
  return new BackupError(
    `${file} is damaged: ${code?.startsWith('Z_') ? 'its compressed data is corrupt' : 'its archive is corrupt'} ` +
      `(${message.replace(/[.?]+$/, '')}).`,
  );
}

/**
 * Reads a backup file through and checks it whole. With `into`, extracts it there: the database's
 * copy as `database.tar`, the images under `objects/`. Answers its description.
 */
export async function readBackup(file: string, into?: string): Promise<BackupManifest> {
  const extractor = extract();
  const feeding = pipeline(createReadStream(file), createGunzip(), extractor);
  /** The entry being read: a fault of the file must end it too, or reading it would wait forever. */
  let current: { destroy: (error?: Error) => void } | null = null;
  feeding.catch((error: unknown) => current?.destroy(error as Error));
  const store = into ? createLocalObjectStore(join(into, 'objects')) : null;
  if (into) await mkdir(join(into, 'objects'), { recursive: true });
  let manifestText: string | null = null;
  let databaseBytes = -1;
  let images = 0;
  let entries = 0;
  try {
    for await (const entry of extractor) {
      current = entry;
      entries++;
      const { name, type } = entry.header;
      if (type !== 'file' || manifestText !== null) {
        throw new BackupError(`${file} is not a console backup (unexpected entry ${name}).`);
      }
      if (name === MANIFEST_ENTRY) {
        manifestText = (await readAll(entry)).toString('utf8');
      } else if (name === DATABASE_ENTRY && databaseBytes < 0) {
        databaseBytes = 0;
        const target = into ? await writing(into, () => open(join(into, DATABASE_ENTRY), 'wx', 0o600)) : null;
        try {
          for await (const chunk of entry) {
            databaseBytes += (chunk as Uint8Array).byteLength;
            if (target) await writing(into!, () => target.write(chunk as Uint8Array));
          }
        } finally {
          await target?.close();
        }
      } else if (name.startsWith(OBJECTS_PREFIX) && isObjectKey(name.slice(OBJECTS_PREFIX.length))) {
        const body = await readAll(entry);
        if (store) await writing(into!, () => store.put(name.slice(OBJECTS_PREFIX.length), body, ''));
        images++;
      } else {
        throw new BackupError(`${file} is not a console backup (unexpected entry ${name}).`);
      }
    }
    await feeding;
  } catch (error) {
    extractor.destroy();
    // The file's own fault (zlib, the tar parser) explains more than the loop's consequence of it.
    const cause =
      error instanceof BackupError
        ? error
        : await feeding.then(
            () => error,
            (fault: unknown) => fault,
          );
    throw damage(file, cause, entries);
  }
  if (databaseBytes <= 0 || manifestText === null) {
    throw new BackupError(
      databaseBytes < 0 && manifestText === null
        ? `${file} is not a console backup (it holds no ${DATABASE_ENTRY} and no ${MANIFEST_ENTRY}).`
        : `${file} is incomplete: it has no ${databaseBytes <= 0 ? DATABASE_ENTRY : MANIFEST_ENTRY}.`,
    );
  }
  return parseManifest(file, manifestText, images);
}

function parseManifest(file: string, text: string, images: number): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError(`${file} is damaged: its ${MANIFEST_ENTRY} is not JSON.`);
  }
  const format = (value as { format?: unknown }).format;
  if (typeof format === 'number' && format > BACKUP_FORMAT) {
    throw new BackupError(
      `${file} was written by a newer version of the console (backup format ${format}); restore it with that version.`,
    );
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) throw new BackupError(`${file} is damaged: its ${MANIFEST_ENTRY} is not valid.`);
  if (parsed.data.images !== null && parsed.data.images !== images) {
    throw new BackupError(
      `${file} is damaged: it holds ${images} images, its description says ${parsed.data.images}.`,
    );
  }
  return parsed.data;
}
