import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/**
 * Staff work in India, so a bare date is a calendar day in India Standard Time (UTC+05:30 all
 * year, no daylight saving): the instant it starts, with its offset spelled out so that the
 * database's own time zone plays no part.
 */
export function startOfIndianDay(date: string): string {
  return `${date}T00:00:00+05:30`;
}

/** The calendar day after a YYYY-MM-DD date. */
export function nextDate(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + 1)).toISOString().slice(0, 10);
}

/** A time column within the IST days from..to, both whole days included; either may be absent. */
export function istDayRange(column: AnyColumn, from: string | undefined, to: string | undefined): SQL[] {
  const conditions: SQL[] = [];
  if (from) conditions.push(sql`${column} >= ${startOfIndianDay(from)}::timestamptz`);
  if (to) conditions.push(sql`${column} < ${startOfIndianDay(nextDate(to))}::timestamptz`);
  return conditions;
}

/** India's clock read as UTC: India Standard Time is UTC+05:30 all year. */
const inIndia = (now: Date) => new Date(now.getTime() + 5.5 * 3_600_000);

/** Today's date in India (YYYY-MM-DD). */
export function indianToday(now = new Date()): string {
  return inIndia(now).toISOString().slice(0, 10);
}

/** The hour in India (0-23). */
export function indianHour(now = new Date()): number {
  return inIndia(now).getUTCHours();
}
