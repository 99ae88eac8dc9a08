import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { compareKeys } from './rest-client';
import type { TripsWindow } from './trips-window';

/**
 * Records removed in Firebase while the console was away. A stream's first event holds every
 * record of its location (for trips, of the window followed): a driver, customer or trip the
 * console has from Firebase that the first event does not hold was removed meanwhile, and is ended
 * as a removal that arrives live is. City dealers and franchises are not looked for: the console
 * writes those itself, and one of its own may not have reached Firebase yet.
 */

export const LOOKED_FOR = ['driver', 'customer', 'trips'] as const;
type LookedFor = (typeof LOOKED_FOR)[number];

/** More records than this in a section, and its first event's keys are not kept to compare. */
export const MOST_KEYS = 300_000;
/**
 * Beyond this many, and a quarter of the records, a removal found by a first event looks like the
 * wrong database: it is held until an admin reads that kind of record again.
 */
const MOST_REMOVED = 1_000;

export function isLookedFor(section: string): section is LookedFor {
  return (LOOKED_FOR as readonly string[]).includes(section);
}

export type Absent = { keys: string[] } | { held: number; of: number };

/** The keys the console holds but the first event did not bring. */
export async function absentKeys(
  db: Db,
  section: LookedFor,
  seen: ReadonlySet<string>,
  window: TripsWindow | null,
  { hold = true }: { hold?: boolean } = {},
): Promise<Absent> {
  const rows = rowsOf(
    await db.execute(
      section === 'driver'
        ? sql`select firebase_key from drivers where firebase_key is not null and deleted_at is null
              limit ${MOST_KEYS + 1}`
        : section === 'customer'
          ? sql`select firebase_key from customers
                where firebase_key is not null and firebase_removed_at is null limit ${MOST_KEYS + 1}`
          : sql`select firebase_key from trips
                where firebase_key is not null and firebase_removed_at is null
                  and created_at >= ${(window?.since ?? new Date(0)).toISOString()}::timestamptz
                limit ${MOST_KEYS + 1}`,
    ),
  );
  if (rows.length > MOST_KEYS) return { keys: [] };
  const keys = rows
    .map((row) => String(row.firebase_key))
    .filter((key) => !seen.has(key) && (!window || compareKeys(key, window.start) >= 0));
  // An empty location says nothing of what it held before (a database just made, or the wrong one).
  if (hold && seen.size === 0) return { keys: [] };
  // A great share of many: more likely the wrong database than removals.
  if (hold && keys.length > MOST_REMOVED && keys.length * 4 > rows.length) {
    return { held: keys.length, of: rows.length };
  }
  return { keys };
}
