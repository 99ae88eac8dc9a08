import { buildApp } from './app';
import { createLocationBus } from './infra/create-location-bus';
import { createObjectStore } from './infra/create-object-store';
import { ConfigError, loadConfig } from './config';
import { analyzeDatabase, openDatabase, type Db } from './db/client';
import { DataDirBusyError } from './db/data-dir-lock';
import { isDatabaseEmpty, seedDemo } from './db/seed/demo';

const ANALYZE_EVERY_MS = 6 * 3_600_000;

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const logger = {
    level: config.logLevel,
    ...(config.logPretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const objectStore = createObjectStore(config.objectStore);
  const locationBus = await createLocationBus(config.redisUrl);
  const app = await buildApp({ config, db: database.db, objectStore, locationBus, logger });

  if (config.demoData && (await isDatabaseEmpty(database.db))) {
    app.log.info('Empty database: loading the demo data (a few seconds)...');
    // One transaction: a start stopped half-way leaves an empty database, not half the demo.
    const summary = await database.db.transaction((tx) =>
      seedDemo(tx as unknown as Db, {
        password: config.demoPassword,
        dataDir: config.dataDir,
        progress: false,
      }),
    );
    app.log.info(summary, 'demo data loaded');
    await analyzeDatabase(database.db);
  }

  // PGlite has no autovacuum: statistics are refreshed now and then (PostgreSQL's autovacuum does
  // this for a server database).
  const analyzeTimer =
    database.kind === 'pglite'
      ? setInterval(() => {
          analyzeDatabase(database.db).catch((error: unknown) => {
            app.log.warn({ err: error }, 'could not refresh the database statistics');
          });
        }, ANALYZE_EVERY_MS)
      : undefined;
  analyzeTimer?.unref();

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    clearInterval(analyzeTimer);
    try {
      await app.close();
      await locationBus.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${config.port}`;
  const store = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  console.log(`\nBook-My-ETaxi staff console: ${url}  (database: ${store})`);
  if (config.demoData) {
    console.log(
      'Demo accounts (password: ' +
        (process.env.DEMO_PASSWORD ? 'DEMO_PASSWORD' : config.demoPassword) +
        '):',
    );
    console.log('  admin@bookmyetaxi.test      Admin tab');
    console.log('  dealer@bookmyetaxi.test     City Dealer tab');
    console.log('  franchise@bookmyetaxi.test  Franchise tab');
  }
  if (!config.mail.smtpUrl) console.log('No SMTP_URL: mails (password reset links) are printed to this log.');
  console.log(`Sign in at ${url}/admin  ·  API docs at ${url}/api/docs\n`);
}

main().catch((error) => {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
});
