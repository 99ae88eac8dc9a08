import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Staff count days and hours in India Standard Time whatever the database's own time zone. The
 * dashboard's daily figures (migration 0010's triggers) spell these two expressions the same way:
 * a trip falls on the same day and hour in a figure as in the filtered trip list.
 */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';

/** The calendar day in India of a timestamptz column, as a date. */
export function indianDay(column: AnyColumn | SQL): SQL<string> {
  return sql<string>`(${column} at time zone 'Asia/Kolkata')::date`;
}

/** The hour of the day in India (0 to 23) of a timestamptz column. */
export function indianHour(column: AnyColumn | SQL): SQL<number> {
  return sql<number>`extract(hour from ${column} at time zone 'Asia/Kolkata')::int`;
}
