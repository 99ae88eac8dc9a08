import { sql, type SQL } from 'drizzle-orm';
import { boundToMs } from '@bmet/shared/schemas/dashboard';
import { trips } from '../../db/schema';
import { dateConditions, isBareDate } from '../trips/list-filters';

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

/** The number of the day in India that a moment falls on (days since 1970-01-01 in India). */
const indianDayNumber = (ms: number) => Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
const dateOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const midnightMs = (day: number) => day * DAY_MS - IST_OFFSET_MS;
const midnight = (day: number) => sql`${`${dateOfDay(day)}T00:00:00+05:30`}::timestamptz`;

export type Period = { from: string; to: string };

/** Trips read one by one: added to the daily figures (+1), or taken away from them (-1). */
export type RawPart = { sign: 1 | -1; conditions: SQL[] };

export type PeriodParts = {
  /** The days in India whose daily figures are read, first to last; null when none. */
  days: { first: string; last: string } | null;
  /** The trips of the partial days at the ends of a period given as moments. */
  raw: RawPart[];
};

/**
 * Splits a period as the trip list reads it (inclusive bounds; a bare date is a whole day in
 * India) into days read from the daily figures and trips read one by one.
 *
 * A bound given as a moment cuts its day in two. Either the part inside the period is read from
 * the trips, or the whole day is taken from the daily figures and the part outside the period
 * read and taken away; whichever spans less time, counting none after `now` (a period that ends
 * now costs nothing to cut). Each raw part is spelled with the bound itself, exactly as the trip
 * list compares it, so the figures hold the same trips whichever way a day is cut.
 */
export function splitPeriod({ from, to }: Period, now = Date.now()): PeriodParts {
  const span = (start: number, end: number) => Math.max(0, Math.min(end, now) - start);
  const first = indianDayNumber(boundToMs(from, 'from'));
  const last = isBareDate(to) ? indianDayNumber(boundToMs(to, 'to')) - 1 : indianDayNumber(Date.parse(to));
  const fromMs = boundToMs(from, 'from');
  const toMs = Date.parse(to);
  const list = dateConditions(from, to);
  // What lies outside the period within its first and last days.
  const before = isBareDate(from)
    ? null
    : {
        conditions: [
          sql`${trips.createdAt} >= ${midnight(first)}`,
          sql`${trips.createdAt} < ${from}::timestamptz`,
        ],
        span: span(midnightMs(first), fromMs),
      };
  const after = isBareDate(to)
    ? null
    : {
        conditions: [
          sql`${trips.createdAt} > ${to}::timestamptz`,
          sql`${trips.createdAt} < ${midnight(last + 1)}`,
        ],
        span: span(toMs, midnightMs(last + 1)),
      };

  if (first === last && (before || after)) {
    // One day: the period itself, or the day without what is outside the period.
    const outside = (before?.span ?? 0) + (after?.span ?? 0);
    if (span(fromMs, toMs) <= outside) return { days: null, raw: [{ sign: 1, conditions: list }] };
    return { days: { first: dateOfDay(first), last: dateOfDay(first) }, raw: takenAway(before, after) };
  }

  let firstWhole = first;
  let lastWhole = last;
  const raw: RawPart[] = [];
  if (before && span(fromMs, midnightMs(first + 1)) < before.span) {
    raw.push({ sign: 1, conditions: [...list, sql`${trips.createdAt} < ${midnight(first + 1)}`] });
    firstWhole = first + 1;
  } else if (before) {
    raw.push({ sign: -1, conditions: before.conditions });
  }
  if (after && span(midnightMs(last), toMs + 1) < after.span) {
    raw.push({ sign: 1, conditions: [...list, sql`${trips.createdAt} >= ${midnight(last)}`] });
    lastWhole = last - 1;
  } else if (after) {
    raw.push({ sign: -1, conditions: after.conditions });
  }
  return {
    days: firstWhole <= lastWhole ? { first: dateOfDay(firstWhole), last: dateOfDay(lastWhole) } : null,
    raw,
  };
}

function takenAway(...parts: ({ conditions: SQL[] } | null)[]): RawPart[] {
  return parts.flatMap((part) => (part ? [{ sign: -1 as const, conditions: part.conditions }] : []));
}

/** Every date of a period in India, first to last, for charts that show each day. */
export function datesOf({ from, to }: Period): string[] {
  const first = indianDayNumber(boundToMs(from, 'from'));
  // An inclusive moment `to` falls on its own day; a bare one ends at the next midnight.
  const last = isBareDate(to) ? indianDayNumber(boundToMs(to, 'to')) - 1 : indianDayNumber(Date.parse(to));
  const dates: string[] = [];
  for (let day = first; day <= last; day++) dates.push(dateOfDay(day));
  return dates;
}
