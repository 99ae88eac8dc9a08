import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { ConfigError, loadDatabaseConfig } from '../config';
import { DataDirBusyError } from '../db/data-dir-lock';
import { BackupError } from '../infra/backup';
import { restoreBackup } from '../infra/restore';
import { failIfStoppedEarly } from './stopped-early';

const usage = `Usage: npm run restore -- FILE [--force]
Restores a backup written by npm run backup into DATA_DIR, which must be empty; --force replaces
its database and images (they are moved aside, not deleted). Stop the server first.`;

async function main() {
  const { values, positionals } = parseArgs({
    options: { force: { type: 'boolean' }, help: { type: 'boolean' } },
    allowPositionals: true,
  });
  if (values.help || positionals.length !== 1) {
    console.log(usage);
    process.exitCode = values.help ? 0 : 1;
    return;
  }
  const { databaseUrl, dataDir } = loadDatabaseConfig();
  if (databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: this command restores the embedded database only. Restore PostgreSQL with ' +
        "pg_restore into an empty database, and the document images by the object store's own means " +
        '(README, "Operations").',
    );
  }
  // Named where the user typed the command (npm runs scripts in the workspace).
  const file = resolve(process.env.INIT_CWD ?? process.cwd(), positionals[0]!);
  const started = Date.now();
  const { manifest, rows, movedAside } = await restoreBackup({ file, dataDir, force: Boolean(values.force) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const counts = Object.entries(rows)
    .map(([table, count]) => `${count.toLocaleString('en-US')} ${table}`)
    .join(', ');
  console.log(`Restored the backup of ${manifest.createdAt} into ${dataDir} in ${seconds} s:`);
  console.log(`  ${counts}; database at migration ${manifest.lastMigration ?? 'none'}`);
  console.log(
    manifest.images === null
      ? '  No document images: the backup was made with S3_BUCKET set, and they are in the bucket.'
      : `  ${manifest.images.toLocaleString('en-US')} document images`,
  );
  if (manifest.imagesChanged.length > 0) {
    console.warn(
      `Warning: ${manifest.imagesChanged.length} document images were replaced while the backup was made; ` +
        'those documents may show a newer image or none.',
    );
  }
  if (movedAside) {
    console.log(`The previous database and images are in ${movedAside}: delete it once the console works.`);
  }
  console.log(
    'Next: start the server (npm start); it applies any newer migrations at start.' +
      (process.env.JWT_SECRET
        ? ''
        : ' The token secret is not in a backup, so a new one is made: everyone signs in again.'),
  );
}

const done = main();
failIfStoppedEarly(done, 'restore');
done.catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`${(error as Error).message}\n${usage}`);
    process.exit(1);
  }
  const known =
    error instanceof BackupError || error instanceof ConfigError || error instanceof DataDirBusyError;
  console.error(
    known ? (error as Error).message : `The restore failed: ${(error as Error).message ?? error}`,
  );
  process.exit(1);
});
