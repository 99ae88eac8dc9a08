import { z } from 'zod';
import { DAY_RANGE, OFFSET_RANGE, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, ROLES } from '../constants';
import { m } from '../paraglide/messages.js';
import '../validation-messages';

/** Wraps a payload in the spec's `{ data: ... }` envelope. */
export const envelope = <T extends z.ZodType>(data: T) => z.object({ data: data });

export const roleSchema = z.enum(ROLES);

/** An email address, trimmed and lowercased so that lookups are case-insensitive. */
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: () => m.enterValidEmail() }));

/** A new password: length rules here; the common-password check runs on the server. */
export const newPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { error: () => m.passwordTooShort({ min: PASSWORD_MIN_LENGTH }) })
  .max(PASSWORD_MAX_LENGTH, { error: () => m.passwordTooLong({ max: PASSWORD_MAX_LENGTH }) });

/** Whether a date or a moment falls on a day of DAY_RANGE; other forms are left to their format. */
function isInDayRange(value: unknown): boolean {
  const day = typeof value === 'string' ? value.slice(0, 10) : '';
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return true;
  return day >= DAY_RANGE.first && day <= DAY_RANGE.last;
}

/** Minutes east of UTC of an offset written ±HH:MM, ±HHMM or ±HH. */
function offsetMinutes(offset: string): number {
  const [, sign, hours, minutes = '0'] = /^([+-])(\d{2}):?(\d{2})?$/.exec(offset) ?? [];
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}
const OFFSET_MINUTES = { first: offsetMinutes(OFFSET_RANGE.first), last: offsetMinutes(OFFSET_RANGE.last) };

/** Whether a moment's offset is within OFFSET_RANGE; a bare date or a `Z` has none to check. */
function isInOffsetRange(value: unknown): boolean {
  const offset = typeof value === 'string' ? /T.*([+-]\d{2}(?::?\d{2})?)$/.exec(value)?.[1] : undefined;
  if (!offset) return true;
  const minutes = offsetMinutes(offset);
  return minutes >= OFFSET_MINUTES.first && minutes <= OFFSET_MINUTES.last;
}

/**
 * A date or a moment schema that also refuses what the database cannot read, saying the range
 * allowed: days outside DAY_RANGE and offsets outside OFFSET_RANGE. ISO 8601 allows the years
 * 0000 to 9999, but PostgreSQL has no year 0, and the day after 9999-12-31 (the end of a `to` date)
 * or such a moment moved to UTC or to India's time has a five-digit year that neither
 * JavaScript's ISO strings nor PostgreSQL read back; it allows offsets to ±23:59, PostgreSQL ±15:59.
 */
export const withinCalendar = <T extends z.ZodType<string>>(schema: T) =>
  schema
    .refine(isInDayRange, { error: () => m.dateOutOfRange(DAY_RANGE) })
    .refine(isInOffsetRange, { error: () => m.offsetOutOfRange(OFFSET_RANGE) });

/** A real calendar day (YYYY-MM-DD) within DAY_RANGE; `invalid` words a value of another form. */
export const calendarDaySchema = (invalid: () => string) => withinCalendar(z.iso.date({ error: invalid }));

/** An ISO 8601 date and time with its offset, within DAY_RANGE and OFFSET_RANGE. */
export const momentSchema = (invalid?: () => string) =>
  withinCalendar(z.iso.datetime(invalid ? { offset: true, error: invalid } : { offset: true }));

/** A query parameter that is `true` or `false`, as a boolean. */
export const booleanQuerySchema = z
  .enum(['true', 'false'], { error: () => m.mustBeTrueOrFalse() })
  .transform((value) => value === 'true');

export const idParamSchema = z.object({ id: z.uuid({ error: () => m.notValidId() }) });

export const messageResponseSchema = envelope(z.object({ message: z.string() }));

/**
 * How many records a list matches: counted up to LIST_TOTAL_CAP on the first page (and carried on
 * with the cursor); `totalCapped` says there are at least that many ("10,000+").
 */
export const listTotalShape = {
  total: z.number().int().min(0),
  totalCapped: z.boolean(),
};
