import { sql } from 'drizzle-orm';
import { FIREBASE_LINK_KINDS } from '@bmet/shared/firebase-link-kinds';
import {
  firebaseLinkActivitySchema,
  idleLinkActivity,
  type FirebaseLinkKind,
  type FirebaseLinkStatus,
} from '@bmet/shared/schemas/firebase-link';
import type { DbExecutor } from '../db/client';
import { rowsOf } from '../db/rows';

/**
 * The Firebase link's state as every instance reads it: the instance that follows (the lease
 * holder, firebase-link/link.ts) writes what it does into its lease row every 2 s, and takes from
 * it the kinds an admin asked to read again. So the admin screen, /api/ready and /metrics answer
 * the same on whichever instance a request reaches.
 */

export const LINK_LEASE = 'firebase-link';

/** The link as a whole: who follows, what it does, and the writes waiting for Firebase. */
export async function readLinkStatus(db: DbExecutor, writeBack: boolean): Promise<FirebaseLinkStatus> {
  const [row] = rowsOf(
    await db.execute(sql`
      select l.holder, l.expires_at > now() as live, l.status, l.rereads,
        o.waiting, o.oldest, o.failing, o.last_error
      from (select 1) one
      left join firebase_link_lease l on l.name = ${LINK_LEASE}
      cross join lateral (
        select count(*)::int as waiting, min(created_at) as oldest,
          count(*) filter (where attempts > 0)::int as failing,
          (select last_error from firebase_outbox where sent_at is null and last_error is not null
            order by id desc limit 1) as last_error
        from firebase_outbox where sent_at is null) o`),
  );
  const live = row?.live === true;
  const activity = firebaseLinkActivitySchema.safeParse(row?.status);
  return {
    ...(live && activity.success ? activity.data : idleLinkActivity()),
    // The last errors are worth seeing even when no instance follows (why it stopped).
    lastErrors: activity.success ? activity.data.lastErrors : [],
    following: live,
    holder: live ? String(row!.holder) : null,
    writeBack,
    outbox: {
      waiting: Number(row?.waiting ?? 0),
      oldestWaitingAt: row?.oldest ? new Date(row.oldest as string).toISOString() : null,
      failing: Number(row?.failing ?? 0),
      lastError: (row?.last_error as string | null) ?? null,
    },
    rereadsAsked: kindsOf(row?.rereads),
  };
}

/** Asks the following instance to read one kind again; false when no instance follows. */
export async function requestReread(db: DbExecutor, kind: FirebaseLinkKind): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      update firebase_link_lease
      set rereads = case when ${kind} = any(rereads) then rereads else array_append(rereads, ${kind}) end
      where name = ${LINK_LEASE} and expires_at > now()
      returning name`),
  );
  return rows.length > 0;
}

/** Kinds stored as text[] (postgres.js answers an array, PGlite may answer its text form). */
export function kindsOf(value: unknown): FirebaseLinkKind[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === 'string'
      ? value
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];
  return items.filter((item): item is FirebaseLinkKind =>
    (FIREBASE_LINK_KINDS as readonly string[]).includes(String(item)),
  );
}
