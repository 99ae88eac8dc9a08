import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { compareKeys } from './rest-client';

/**
 * Which trips a reconnect reads again. Trips are many (a million and more) and, once finished,
 * never change; the apps key them by push ids, which begin with the time they were made. So the
 * link follows trips from a key on (`orderBy="$key"&startAt=…`): the oldest of the trips that were
 * still under way in the last day, or the newest it knows, whichever is older, less an hour for
 * phones whose clocks run late. A console that holds no trip from Firebase yet follows them all.
 *
 * A change made in Firebase to a trip before that key while the console was away is not read
 * again; an admin's re-read of trips on the Firebase link screen reads every trip.
 */

/** Trips still under way as the console last saw them. */
const UNDER_WAY = ['requested', 'assigned', 'started'];
/** A trip requested longer ago than this and never finished was left, not under way. */
const UNDER_WAY_WITHIN_MS = 24 * 3_600_000;
/** Push ids are made on the phones, by their clocks: this much of them running late is allowed for. */
const CLOCK_MARGIN_MS = 3_600_000;

/** The 64 characters of push ids, in ASCII order, so that ids sort as their times do. */
const PUSH_CHARS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** The first 8 characters of the push ids made at this time: every id made later sorts after them. */
export function pushIdPrefix(ms: number): string {
  let prefix = '';
  let rest = Math.max(0, Math.floor(ms));
  for (let count = 0; count < 8; count++) {
    prefix = PUSH_CHARS[rest % 64]! + prefix;
    rest = Math.floor(rest / 64);
  }
  return prefix;
}

export type TripsWindow = {
  /** The first key followed. */
  start: string;
  /** The time it stands for: trips made since may be read again. */
  since: Date;
};

/** Where trips are followed from, or null to follow them all. */
export async function tripsWindow(db: Db, now = Date.now()): Promise<TripsWindow | null> {
  const [row] = rowsOf(
    await db.execute(sql`
      select
        (select max(created_at) from trips where firebase_key is not null) as newest,
        oldest.created_at as oldest_at, oldest.firebase_key as oldest_key
      from (select 1) as one
      left join lateral (
        select created_at, firebase_key from trips
        where firebase_key is not null and firebase_removed_at is null
          and status::text = any(${`{${UNDER_WAY.join(',')}}`}::text[])
          and created_at > ${new Date(now - UNDER_WAY_WITHIN_MS).toISOString()}::timestamptz
        order by created_at limit 1
      ) as oldest on true`),
  );
  if (!row?.newest) return null;
  const times = [now, new Date(row.newest as string).getTime()];
  if (row.oldest_at) times.push(new Date(row.oldest_at as string).getTime());
  const since = Math.min(...times) - CLOCK_MARGIN_MS;
  const start = pushIdPrefix(since);
  const oldestKey = row.oldest_key as string | null;
  return {
    start: oldestKey && compareKeys(oldestKey, start) < 0 ? oldestKey : start,
    since: new Date(since),
  };
}
