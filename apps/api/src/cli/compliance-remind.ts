import { ConfigError, loadToolConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirBusyError } from '../db/data-dir-lock';
import { createMailer } from '../infra/mailer';
import { dueItemLabel, formatCalendarDate, sendExpiryReminders } from '../modules/compliance/reminders';

/**
 * `npm run compliance:remind`: the daily expiry reminders, now. Sends what the daily run would
 * send (nothing twice: a reminder already mailed is recorded) and prints it. On the embedded
 * database, stop the server first (one process owns its folder); on PostgreSQL it runs beside the
 * servers, taking the same lock as their daily run.
 */
async function main() {
  const config = loadToolConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // Without SMTP_URL the mails are printed here, as the server prints them to its log.
  const mailer = createMailer({
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    logger: {
      info: () => {},
      warn: (_object, message) => console.log(message),
    },
  });
  try {
    const run = await sendExpiryReminders(database.db, mailer, { appUrl: config.mail.appUrl });
    if (!run) {
      console.log('Another instance is sending the reminders right now: nothing sent.');
      return;
    }
    for (const sent of run.sent) {
      console.log(`Sent to ${sent.to}: ${sent.documents.length} document(s)`);
      for (const document of sent.documents) {
        console.log(
          `  ${document.driverName}, ${dueItemLabel(document.key)}, expires ${formatCalendarDate(document.expiresOn)}`,
        );
      }
    }
    for (const failed of run.failed) {
      console.log(
        `NOT sent to ${failed.to} (${failed.documents} document(s)); the next run tries again: ${failed.error}`,
      );
    }
    console.log(
      `Expiry reminders of ${formatCalendarDate(run.today)} (IST): ${run.sent.length} mail(s) sent, ${run.failed.length} failed.`,
    );
    if (run.failed.length > 0) process.exitCode = 1;
  } finally {
    mailer.close();
    await database.close();
  }
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError || error instanceof DataDirBusyError;
  console.error(known ? error.message : error);
  process.exit(1);
});
