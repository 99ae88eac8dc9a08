import { loadDatabaseConfig } from '../config';
import { openDatabase } from '../db/client';

/**
 * `npm run db:migrate`: brings the database's schema up to date and exits, for deploy pipelines
 * that migrate before they start (or replace) the instances. Instances starting afterwards find
 * nothing to do; several at once take turns under one lock.
 */
async function main() {
  const config = loadDatabaseConfig();
  const database = await openDatabase(config);
  await database.close();
  console.log(
    `Migrations applied: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
