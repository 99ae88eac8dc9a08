import { and, eq, inArray, sql } from 'drizzle-orm';
import { grievanceCategoryLabel } from '@bmet/shared/grievance-labels';
import { DUE_SOON_MS, UNRESOLVED_STATUSES, type GrievanceCategory } from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { grievanceAlerts, grievances } from '../../db/schema';
import { inLanguage } from '../../infra/language';
import type { Mail, Mailer } from '../../infra/mailer';
import { indianDateTime } from './mails';
import { findGrievanceOfficer } from './officer';

/** The advisory lock of the alerts: with several instances, one of them decides what to send. */
export const GRIEVANCE_ALERT_LOCK = 7_420_241_141;
/** How often the alerts are looked for: a grievance due within a day is told within this. */
export const GRIEVANCE_ALERT_EVERY_MS = 5 * 60_000;

type Alerted = { id: string; number: string; category: string; dueAt: Date; kind: 'due_soon' | 'overdue' };

export type GrievanceAlertRun = { to: string | null; dueSoon: number; overdue: number; error?: string };

function alertMail(to: string, language: string | null, alerted: Alerted[], appUrl: string): Mail {
  const overdue = alerted.filter((alert) => alert.kind === 'overdue');
  const dueSoon = alerted.filter((alert) => alert.kind === 'due_soon');
  const line = (alert: Alerted) =>
    `- ${alert.number} (${grievanceCategoryLabel(alert.category as GrievanceCategory)}), ${m.grievanceAlertDue({ due: indianDateTime(alert.dueAt.toISOString()) })}`;
  return inLanguage(language === 'hi' ? 'hi' : 'en', () => ({
    to,
    subject: m.grievanceAlertSubject({ overdue: overdue.length, dueSoon: dueSoon.length }),
    text: [
      ...(overdue.length ? [m.grievanceAlertOverdue(), ...overdue.map(line), ''] : []),
      ...(dueSoon.length ? [m.grievanceAlertDueSoon(), ...dueSoon.map(line), ''] : []),
      m.grievanceAlertOpen(),
      `${appUrl}/grievances`,
      '',
      m.productTitle(),
    ].join('\n'),
  }));
}

/**
 * Mails the grievance officer the grievances that became due within a day or overdue since the
 * last run, in one mail; null when another instance is doing it. The alerts are recorded before
 * the mail goes, in the transaction that decides them (as the expiry reminders are), and taken
 * back if the mail fails, so that the next run sends them. Without an officer nothing is recorded:
 * the officer named later hears of every grievance still due or overdue.
 */
export async function sendGrievanceAlerts(
  db: Db,
  mailer: Pick<Mailer, 'send'>,
  options: { appUrl: string; now?: Date },
): Promise<GrievanceAlertRun | null> {
  const now = options.now ?? new Date();
  const soon = new Date(now.getTime() + DUE_SOON_MS);
  const claimedAt = new Date();
  const claim = await db.transaction(async (tx) => {
    const [lock] = rowsOf(
      await tx.execute(sql`select pg_try_advisory_xact_lock(${GRIEVANCE_ALERT_LOCK}) as taken`),
    );
    if (!lock?.taken) return null;
    const officer = await findGrievanceOfficer(tx);
    if (!officer.email) return { officer, alerted: [] as Alerted[] };
    const claimed = await tx
      .insert(grievanceAlerts)
      .select(
        tx
          .select({
            grievanceId: grievances.id,
            kind: sql<string>`case when ${grievances.dueAt} < ${now.toISOString()}::timestamptz then 'overdue' else 'due_soon' end`.as(
              'kind',
            ),
            dueAt: grievances.dueAt,
            sentAt: sql<Date>`${claimedAt.toISOString()}::timestamptz`.as('sent_at'),
          })
          .from(grievances)
          .where(
            and(
              inArray(grievances.status, [...UNRESOLVED_STATUSES]),
              sql`${grievances.dueAt} <= ${soon.toISOString()}::timestamptz`,
            ),
          ),
      )
      .onConflictDoNothing()
      .returning({ grievanceId: grievanceAlerts.grievanceId, kind: grievanceAlerts.kind });
    if (claimed.length === 0) return { officer, alerted: [] as Alerted[] };
    const kinds = new Map(claimed.map((row) => [row.grievanceId, row.kind]));
    const rows = await tx
      .select({
        id: grievances.id,
        number: grievances.number,
        category: grievances.category,
        dueAt: grievances.dueAt,
      })
      .from(grievances)
      .where(inArray(grievances.id, [...kinds.keys()]))
      .orderBy(grievances.dueAt);
    return {
      officer,
      alerted: rows.map((row): Alerted => ({
        ...row,
        kind: kinds.get(row.id) === 'overdue' ? 'overdue' : 'due_soon',
      })),
    };
  });
  if (!claim) return null;
  const { officer, alerted } = claim;
  const run: GrievanceAlertRun = {
    to: officer.email,
    dueSoon: alerted.filter((alert) => alert.kind === 'due_soon').length,
    overdue: alerted.filter((alert) => alert.kind === 'overdue').length,
  };
  if (!officer.email || alerted.length === 0) return run;
  try {
    await mailer.send(alertMail(officer.email, officer.language, alerted, options.appUrl));
  } catch (error) {
    run.error = error instanceof Error ? error.message : String(error);
    await db.delete(grievanceAlerts).where(eq(grievanceAlerts.sentAt, claimedAt));
  }
  return run;
}

type ScheduleLog = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
};

/** Looks for grievances to alert the officer of every few minutes, on every instance (one sends). */
export function scheduleGrievanceAlerts(options: {
  db: Db;
  mailer: Pick<Mailer, 'send'>;
  appUrl: string;
  log: ScheduleLog;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  const { db, mailer, appUrl, log } = options;
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = sendGrievanceAlerts(db, mailer, { appUrl })
      .then((result) => {
        if (!result || result.dueSoon + result.overdue === 0) return;
        if (result.error) log.warn(result, 'grievance alert not sent: the next run tries again');
        else log.info(result, 'grievance officer alerted');
      })
      .catch((error: unknown) => log.warn({ err: error }, 'could not send the grievance alerts'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, options.everyMs ?? GRIEVANCE_ALERT_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
