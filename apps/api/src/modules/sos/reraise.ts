import { m } from '@bmet/shared/paraglide/messages';
import { sosPersonLabel } from '@bmet/shared/sos-labels';
import type { Db } from '../../db/client';
import type { LocationBus } from '../../infra/location-bus';
import { inLanguage } from '../../infra/language';
import type { Mailer } from '../../infra/mailer';
import { findGrievanceOfficer } from '../grievances/officer';
import { indianDateTime } from '../grievances/mails';
import { findPlacedAlert, reraiseUnacknowledged } from './repository';

/** How often unacknowledged alerts are looked for: one is raised again within its state's wait and this. */
export const RERAISE_EVERY_MS = 5_000;

type Log = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
};

/**
 * Raises again, to every admin, each alert nobody acknowledged in time (its state's rules), and mails the
 * grievance officer. Each alert is claimed by one UPDATE, so with several instances exactly one
 * tells the others (through the bus) and mails. Answers the alerts raised again.
 */
export async function reraiseAlerts(
  db: Db,
  bus: Pick<LocationBus, 'publishAlert'>,
  mailer: Pick<Mailer, 'send'>,
  options: { appUrl: string; log: Log; now?: Date },
): Promise<string[]> {
  const ids = await reraiseUnacknowledged(db, options.now);
  if (ids.length === 0) return ids;
  const officer = await findGrievanceOfficer(db);
  for (const id of ids) {
    await bus.publishAlert({ alertId: id, kind: 'reraised' }).catch((error: unknown) => {
      options.log.warn({ err: error, alertId: id }, 'could not announce an SOS alert raised again');
    });
    const placed = await findPlacedAlert(db, id);
    if (!placed || !officer.email) continue;
    const { alert } = placed;
    const mail = inLanguage(officer.language === 'hi' ? 'hi' : 'en', () => ({
      to: officer.email!,
      subject: m.sosMailSubject({ number: alert.number }),
      text: [
        m.sosMailBody({
          number: alert.number,
          person: sosPersonLabel(alert.person),
          raised: indianDateTime(alert.raisedAt),
          driver: [alert.driverName, alert.driverPhone].filter(Boolean).join(', ') || '—',
        }),
        `${options.appUrl}/sos`,
        '',
        m.productTitle(),
      ].join('\n'),
    }));
    await mailer.send(mail).catch((error: unknown) => {
      options.log.warn({ err: error, alertId: id }, 'could not mail the grievance officer of an SOS alert');
    });
  }
  options.log.info({ alerts: ids }, 'SOS alerts not acknowledged in time raised again');
  return ids;
}

/** Looks for unacknowledged alerts every RERAISE_EVERY_MS on every instance. */
export function scheduleSosReraise(options: {
  db: Db;
  bus: Pick<LocationBus, 'publishAlert'>;
  mailer: Pick<Mailer, 'send'>;
  appUrl: string;
  log: Log;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = reraiseAlerts(options.db, options.bus, options.mailer, options)
      .catch((error: unknown) => options.log.warn({ err: error }, 'could not raise SOS alerts again'))
      .finally(() => {
        running = null;
      });
  }, options.everyMs ?? RERAISE_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
