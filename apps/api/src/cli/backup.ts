import { createWriteStream, existsSync, statSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { get } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { ConfigError, loadDatabaseConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirBusyError } from '../db/data-dir-lock';
import { BackupError, type BackupManifest, readBackup, writeBackup } from '../infra/backup';
import { CONTROL_FILE, type Control, readControl } from '../infra/backup-control';
import { failIfStoppedEarly } from './stopped-early';

const usage = `Usage: npm run backup -- --out FILE
Writes a backup of the embedded database in DATA_DIR and of its document images to FILE (a
gzipped tar), whether the server runs or not. Restore it with: npm run restore -- FILE`;

/** Files named on the command line are where the user typed it (npm runs scripts elsewhere). */
const fromInvocation = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

/**
 * Asks the running server for the backup, through the route its control file opens. Answers
 * false when that server is gone (killed, it left the file behind): nothing answers at its
 * address any more, or something else does, which knows no such route.
 */
function fromServer(control: Control, path: string): Promise<boolean> {
  return new Promise((resolvePromise, reject) => {
    const request = get(
      `${control.url}/api/backup`,
      { headers: { authorization: `Bearer ${control.key}` } },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          if (response.statusCode === 404) resolvePromise(false);
          else
            reject(
              new BackupError(
                `The server at ${control.url} answered ${response.statusCode} to the backup request; its log says why.`,
              ),
            );
          return;
        }
        pipeline(response, createWriteStream(path, { mode: 0o600, flags: 'wx' })).then(
          () => resolvePromise(true),
          () =>
            reject(
              new BackupError('The server stopped sending the backup before its end; its log says why.'),
            ),
        );
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') resolvePromise(false);
      else reject(new BackupError(`Could not reach the server at ${control.url}: ${error.message}`));
    });
  });
}

/** Opens the database itself (no server runs) and writes the backup from it. */
async function fromDatabase(dataDir: string, objectsRoot: string | null, path: string): Promise<void> {
  let database;
  try {
    // Not migrated: a backup copies the database as it is.
    database = await openDatabase({ dataDir, migrate: false });
  } catch (error) {
    if (!(error instanceof DataDirBusyError)) throw error;
    throw new BackupError(
      `${error.message}\nA server of this version writes the backup itself while it runs, but this one has not ` +
        `left ${CONTROL_FILE} in the data folder: it is still starting (try again once it listens), or it is ` +
        'of an older version (stop it first).',
    );
  }
  try {
    await writeBackup(
      { database: { dump: database.dump! }, objectsRoot },
      createWriteStream(path, { mode: 0o600, flags: 'wx' }),
    );
  } finally {
    await database.close();
  }
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const counted = (rows: Record<string, number>) =>
  Object.entries(rows)
    .map(([table, count]) => `${count.toLocaleString('en-US')} ${table}`)
    .join(', ');

function report(
  out: string,
  manifest: BackupManifest,
  via: string,
  started: number,
  bucket: string | undefined,
) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`Backup written to ${out} (${megabytes(statSync(out).size)} in ${seconds} s, ${via}):`);
  console.log(`  ${counted(manifest.rows)}; database at migration ${manifest.lastMigration ?? 'none'}`);
  if (manifest.images === null) {
    console.log(
      `  Document images are not in it: they live in the S3 bucket${bucket ? ` ${bucket}` : ''}. ` +
        'Back the bucket up by its own means.',
    );
  } else {
    console.log(`  ${manifest.images.toLocaleString('en-US')} document images`);
  }
  if (manifest.imagesChanged.length > 0) {
    console.warn(
      `Warning: ${manifest.imagesChanged.length} document images were replaced while the backup ran ` +
        `(${manifest.imagesChanged.slice(0, 3).join(', ')}${manifest.imagesChanged.length > 3 ? '...' : ''}); ` +
        'the backup holds the newer image or none. Run it again for an exact copy of them.',
    );
  }
  console.log(
    'Not in it: the token secret (DATA_DIR/jwt-secret), so everyone signs in again after a restore.\n' +
      `Restore it with: npm run restore -- ${out}   (into an empty DATA_DIR)`,
  );
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string' }, help: { type: 'boolean' } } });
  if (values.help || !values.out) {
    console.log(usage);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const { databaseUrl, dataDir } = loadDatabaseConfig();
  if (databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this command backs up the embedded database only. Back up PostgreSQL with ' +
        'pg_dump --format=custom, and the document images by the object store\'s own means (README, "Operations").',
    );
  }
  if (!existsSync(join(dataDir, 'pglite'))) {
    throw new BackupError(`There is no embedded database in ${dataDir} (no pglite folder): check DATA_DIR.`);
  }
  const out = fromInvocation(values.out);
  if (!existsSync(dirname(out))) throw new BackupError(`The folder ${dirname(out)} does not exist.`);
  if (existsSync(out) && !statSync(out).isFile()) throw new BackupError(`${out} is a folder.`);
  const bucket = process.env.S3_BUCKET || undefined;
  const objectsRoot = bucket ? null : join(dataDir, 'objects');

  // Written beside and renamed when whole and checked: FILE is never a backup cut short.
  const partial = `${out}.partial`;
  const started = Date.now();
  try {
    // Created afresh (0600, the server's user only: it holds every account's password hash), not
    // over one a killed backup left with whatever mode it had.
    await rm(partial, { force: true });
    const control = readControl(dataDir);
    const viaServer = control ? await fromServer(control, partial) : false;
    if (!viaServer) await fromDatabase(dataDir, objectsRoot, partial);
    const manifest = await readBackup(partial);
    await rename(partial, out);
    report(out, manifest, viaServer ? 'through the running server' : 'no server running', started, bucket);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

const done = main();
failIfStoppedEarly(done, 'backup');
done.catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(1);
  }
  const known =
    error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirBusyError;
  console.error(known ? (error as Error).message : `The backup failed: ${(error as Error).message ?? error}`);
  process.exit(1);
});
