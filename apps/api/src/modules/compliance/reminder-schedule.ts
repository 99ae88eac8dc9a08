import type { Db } from '../../db/client';
import type { LocationBus } from '../../infra/location-bus';
import type { Mailer } from '../../infra/mailer';
import { sendExpiryReminders } from './reminders';

/** The reminders go out every day at 09:00 in India: at the start of the working day, once. */
export const REMINDER_HOUR_IST = 9;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const IST_OFFSET_MS = 5.5 * HOUR_MS;

/** Milliseconds from `now` to the next `hour`:00 in India (a full day when it is that very moment). */
export function msUntilIndianHour(hour: number, now = new Date()): number {
  const indian = now.getTime() + IST_OFFSET_MS;
  const next = Math.floor(indian / DAY_MS) * DAY_MS + hour * HOUR_MS;
  return (next > indian ? next : next + DAY_MS) - indian;
}

type ScheduleLog = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
};

/**
 * Runs the expiry reminders every day at REMINDER_HOUR_IST. Every instance keeps the timer and
 * one of them (the advisory lock) sends; a day the server was down at that hour is caught up the
 * next day, since a document stays within its threshold until it expires. `stop` waits for a run
 * in progress, so that a graceful stop never cuts one between recording and mailing.
 */
export function scheduleExpiryReminders(options: {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  appUrl: string;
  log: ScheduleLog;
  bus?: Pick<LocationBus, 'publishAlert'>;
}): { stop: () => Promise<void> } {
  const { db, mailer, appUrl, log, bus } = options;
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | undefined;

  const run = () => {
    running = sendExpiryReminders(db, mailer, { appUrl, bus })
      .then((result) => {
        if (!result) return;
        if (result.inboxWarning)
          log.warn({ err: result.inboxWarning }, 'could not push the reminders to the open inboxes');
        for (const sent of result.sent)
          log.info({ to: sent.to, documents: sent.documents.length }, 'expiry reminder sent');
        for (const failed of result.failed)
          log.warn(failed, 'expiry reminder not sent: the next run tries again');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not send the expiry reminders'))
      .finally(() => {
        running = null;
      });
  };
  const plan = () => {
    timer = setTimeout(() => {
      run();
      plan();
    }, msUntilIndianHour(REMINDER_HOUR_IST));
    timer.unref();
  };
  plan();

  return {
    stop: async () => {
      clearTimeout(timer);
      await running;
    },
  };
}
