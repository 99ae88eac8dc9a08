import type { Writable } from 'node:stream';
import { buildApp } from './app';
import { createLocationBus } from './infra/create-location-bus';
import { FirebaseLink } from './firebase-link/link';
import { FirebaseRestClient } from './firebase-link/rest-client';
import { createObjectStore } from './infra/create-object-store';
import { ConfigError, loadConfig, severalInstanceWarnings } from './config';
import { analyzeDatabase, openDatabase, POOL_SIZE, vacuumWhereNeeded } from './db/client';
import { DataDirBusyError } from './db/data-dir-lock';
import { disableDemoAccounts, isDatabaseEmpty, seedDemoIfEmpty } from './seed/demo';
import { findAdminEmails } from './modules/auth/repository';
import { removeExpiredRows } from './modules/auth/expired-rows';
import { keepDriverSearchInOrder } from './modules/drivers/search-order';
import { createMailer } from './infra/mailer';
import { scheduleExpiryReminders } from './modules/compliance/reminder-schedule';
import { scheduleGrievanceAlerts } from './modules/grievances/alerts';
import { scheduleSosReraise } from './modules/sos/reraise';
import { scheduleGrievanceNotices } from './modules/notifications/grievance-notices';
import { writeBackup } from './infra/backup';
import { loopbackUrl, newControlKey, writeControl } from './infra/backup-control';

const ANALYZE_EVERY_MS = 6 * 3_600_000;
const VACUUM_EVERY_MS = 15 * 60_000;
const CLEAN_UP_EVERY_MS = 3_600_000;

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
  // Without its database thread the server can answer nothing: it ends, to be started again by
  // its supervisor (the container's restart policy, systemd), rather than refuse every request.
  database.onStop?.((error) => {
    console.error(`The embedded database stopped; exiting. ${error.message}`);
    process.exit(1);
  });
  const objectStore = createObjectStore(config.objectStore);
  const locationBus = await createLocationBus(config.redisUrl);
  // This server holds the embedded database: `npm run backup` asks it for the backup, through a
  // route opened by the key it leaves in the data folder once listening.
  const dump = database.dump;
  const objectsRoot = config.objectStore.kind === 'local' ? config.objectStore.root : null;
  const backup = dump
    ? {
        key: newControlKey(),
        write: (out: Writable) => writeBackup({ database: { dump }, objectsRoot }, out),
      }
    : undefined;
  // The link to the apps' Firebase database (FIREBASE_DATABASE_URL): started once the server
  // listens; its positions reach the maps of every instance through the location bus.
  let firebaseLink: FirebaseLink | undefined;
  const app = await buildApp({
    config,
    db: database.db,
    objectStore,
    locationBus,
    logger,
    poolSize: database.kind === 'postgres' ? POOL_SIZE : 1,
    backup,
    firebaseLink: config.firebase ? { writeBack: config.firebase.writeBack } : undefined,
  });
  if (config.firebase) {
    firebaseLink = new FirebaseLink(
      database.db,
      new FirebaseRestClient(config.firebase.address, config.firebase.credentials),
      {
        logger: app.log,
        writeBack: config.firebase.writeBack,
        concurrentIndexes: database.kind === 'postgres',
        objectStore,
        publish: (event) => locationBus.publish(event),
      },
    );
  }

  if (config.demoData && (await isDatabaseEmpty(database.db))) {
    app.log.info('Empty database: loading the demo data (a few seconds)...');
    const summary = await seedDemoIfEmpty(database.db, {
      password: config.demoPassword,
      objectStore,
    });
    app.log.info(summary ?? {}, summary ? 'demo data loaded' : 'demo data loaded by another instance');
    await analyzeDatabase(database.db);
  }

  if (config.env === 'production') {
    const disabled = await disableDemoAccounts(database.db);
    if (disabled.length) {
      app.log.error(
        { accounts: disabled },
        `${disabled.length} demo accounts were disabled: their password is published, and a ` +
          'production server keeps none',
      );
    }
  }
  if (!config.demoData && (await findAdminEmails(database.db)).length === 0) {
    app.log.warn(
      'No admin account yet. Create the first one with ' +
        '`npm run create-admin -- --email you@example.in --name "Your Name"`' +
        (database.kind === 'pglite'
          ? ' (stop this server first: the embedded database takes one process)'
          : ''),
    );
  }

  // PGlite has no autovacuum: statistics are refreshed now and then, and tables with many dead
  // rows are vacuumed, as PostgreSQL's autovacuum does for a server database. Drivers' positions
  // leave dead rows, and so does a seed or an import (the kept figures rewrite every driver's
  // row). A vacuum holds the embedded database for its time (0.8-1.3 s for 100,000 drivers), so it
  // runs only where autovacuum would: after the first clean-up below, then every quarter of an hour.
  const analyzeTimer =
    database.kind === 'pglite'
      ? setInterval(() => {
          analyzeDatabase(database.db).catch((error: unknown) => {
            app.log.warn({ err: error }, 'could not refresh the database statistics');
          });
        }, ANALYZE_EVERY_MS)
      : undefined;
  analyzeTimer?.unref();
  const vacuum = () =>
    vacuumWhereNeeded(database.db)
      .then((vacuumed) => {
        if (vacuumed.length) app.log.info({ vacuumed }, 'tables vacuumed');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not vacuum the database'));
  const firstVacuum = database.kind === 'pglite' ? setTimeout(vacuum, 90_000) : undefined;
  firstVacuum?.unref();
  const vacuumTimer = database.kind === 'pglite' ? setInterval(vacuum, VACUUM_EVERY_MS) : undefined;
  vacuumTimer?.unref();

  // Ended sessions, closed sign-in windows and old reset links are deleted hourly, by one instance
  // at a time; the first run comes a minute after start.
  // The driver search's table is put back in name order at night when enough of it has moved
  // (decision 042), in the same round.
  const cleanUp = () =>
    removeExpiredRows(database.db)
      .then((removed) => {
        if (removed) app.log.info({ removed }, 'expired rows removed');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not remove expired rows'))
      .then(() => keepDriverSearchInOrder(database.db))
      .then((order) => {
        if (order?.ordered) app.log.info({ order }, 'driver search put in name order');
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not order the driver search'));
  const firstCleanUp = setTimeout(cleanUp, 60_000);
  const cleanUpTimer = setInterval(cleanUp, CLEAN_UP_EVERY_MS);
  firstCleanUp.unref();
  cleanUpTimer.unref();

  // Documents expiring within 30, 7 or 1 days are mailed to their franchises and city dealers
  // daily at 09:00 IST, by one instance at a time (`npm run compliance:remind` does it now).
  const reminderMailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    logger: app.log,
  });
  const reminders = scheduleExpiryReminders({
    db: database.db,
    mailer: reminderMailer,
    appUrl: config.mail.appUrl,
    log: app.log,
    bus: locationBus,
  });

  // The grievance officer hears of grievances due within a day and overdue, within minutes.
  const grievanceAlerts = scheduleGrievanceAlerts({
    db: database.db,
    mailer: reminderMailer,
    appUrl: config.mail.appUrl,
    log: app.log,
  });

  // An SOS alert nobody acknowledged in time (a minute unless its state sets otherwise) is raised again to every admin.
  const sosReraise = scheduleSosReraise({
    db: database.db,
    bus: locationBus,
    mailer: reminderMailer,
    appUrl: config.mail.appUrl,
    log: app.log,
  });

  // Grievances due within a day or overdue reach the inboxes of the staff in scope, pushed live.
  const grievanceNotices = scheduleGrievanceNotices({ db: database.db, bus: locationBus, log: app.log });

  let closing = false;
  let removeControl = () => {};
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    removeControl();
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    timer.unref();
    clearInterval(analyzeTimer);
    clearTimeout(firstVacuum);
    clearInterval(vacuumTimer);
    clearTimeout(firstCleanUp);
    clearInterval(cleanUpTimer);
    try {
      await firebaseLink?.stop();
      await reminders.stop();
      await grievanceAlerts.stop();
      await sosReraise.stop();
      await grievanceNotices.stop();
      reminderMailer.close();
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
  if (backup)
    removeControl = writeControl(config.dataDir, { url: loopbackUrl(app.addresses()), key: backup.key });
  if (firebaseLink) {
    firebaseLink.start();
    app.log.info(
      { database: config.firebase!.address.origin },
      "Firebase link: following the apps' database",
    );
  }
  const url = `http://localhost:${config.port}`;
  const store = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`;
  app.log.info({ url, database: store }, `Book-My-ETaxi staff console: ${url}`);
  if (config.demoData) {
    const password = process.env.DEMO_PASSWORD ? 'DEMO_PASSWORD' : config.demoPassword;
    app.log.info(
      `Demo accounts (password: ${password}): admin@bookmyetaxi.test on the Admin tab, ` +
        'dealer@bookmyetaxi.test on the City Dealer tab, franchise@bookmyetaxi.test on the Franchise tab',
    );
  }
  if (!config.mail.smtpUrl)
    app.log.info('No SMTP_URL: mails (password reset links, expiry reminders) are printed to this log.');
  for (const warning of severalInstanceWarnings(config)) app.log.warn(warning);
  app.log.info(`Sign in at ${url}/admin  ·  API docs at ${url}/api/docs`);
}

main().catch((error) => {
  console.error(error instanceof DataDirBusyError ? error.message : error);
  process.exit(1);
});
