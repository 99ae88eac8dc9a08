import { sql } from 'drizzle-orm';
import { DUE_SOON_MS, UNRESOLVED_STATUSES } from '@bmet/shared/grievance-rules';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { LocationBus } from '../../infra/location-bus';
import { recipientsOf } from './repository';

/** How often grievances' clocks are looked at for the inboxes: due within a day is told within this. */
export const GRIEVANCE_NOTICE_EVERY_MS = 60_000;
const FIRST_RUN_MS = 5_000;

/**
 * Puts in the inbox of every account whose scope holds it each unresolved grievance that is due
 * within a day or overdue, once per deadline and kind (a reopened grievance's new deadline is told
 * again); answers the accounts told now. Safe on several instances at once: the inbox's unique key
 * keeps one of each.
 */
export async function recordGrievanceNotices(db: Db, now = new Date()): Promise<string[]> {
  const soon = new Date(now.getTime() + DUE_SOON_MS);
  const unresolved = sql.join(
    UNRESOLVED_STATUSES.map((status) => sql`${status}`),
    sql`, `,
  );
  const rows = rowsOf(
    await db.execute(sql`
      insert into notifications (account_id, kind, dedupe_key, record_type, record_id, detail)
      select r.account_id, g.kind, g.kind || ':' || g.id || ':' || g.due_text, 'grievances', g.id,
        jsonb_build_object('number', g.number, 'dueAt', g.due_text)
      from (
        select id, number, driver_id,
          to_char(due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as due_text,
          case when due_at < ${now.toISOString()}::timestamptz then 'grievance_overdue'
            else 'grievance_due_soon' end as kind
        from grievances
        where status in (${unresolved}) and due_at <= ${soon.toISOString()}::timestamptz
      ) g
      cross join lateral (${recipientsOf(sql`g.driver_id`)}) r
      on conflict (account_id, dedupe_key) do nothing
      returning account_id`),
  );
  return [...new Set(rows.map((row) => String(row.account_id)))];
}

type ScheduleLog = { warn: (object: object, message: string) => void };

/** Looks at the grievances' clocks every minute on every instance, and pushes to the tabs told. */
export function scheduleGrievanceNotices(options: {
  db: Db;
  bus: Pick<LocationBus, 'publishAlert'>;
  log: ScheduleLog;
  everyMs?: number;
}): { stop: () => Promise<void> } {
  let running: Promise<void> | null = null;
  const run = () => {
    if (running) return;
    running = recordGrievanceNotices(options.db)
      .then(async (accountIds) => {
        if (accountIds.length > 0) await options.bus.publishAlert({ kind: 'inbox', accountIds });
      })
      .catch((error: unknown) => options.log.warn({ err: error }, 'could not record the grievance notices'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, options.everyMs ?? GRIEVANCE_NOTICE_EVERY_MS);
  timer.unref();
  // A first look soon after starting: what fell due while no instance ran is told at once.
  const first = setTimeout(run, FIRST_RUN_MS);
  first.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      clearTimeout(first);
      await running;
    },
  };
}
