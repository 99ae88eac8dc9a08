/** Readers of the values the apps wrote, lenient as the data is: null when nothing usable is there. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A child node read as a map of records (Firebase writes small integer keys as an array). */
export function entriesOf(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((item, index) => [String(index), item] as [string, unknown]);
  return isRecord(value) ? Object.entries(value) : [];
}

/** Text, trimmed; numbers as written; null for "" and anything else. */
export function textOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
}

/** A number written as a number or as text ("19.07"). */
export function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const number = Number(value.trim());
  return Number.isFinite(number) ? number : null;
}

/** An amount of rupees as the apps wrote it: 250, "250", "Rs 250", "Rs. 1,250.50", "₹250", "250 km". */
export function amountOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const cleaned = value
    .replace(/₹|rs\.?|inr|km/gi, '')
    .replace(/,/g, '')
    .trim();
  if (!/^-?\d+(\.\d+)?$/.test(cleaned)) return null;
  // Four hundred nines are digits all the same, and no number: PostgreSQL would get none.
  const amount = Number(cleaned);
  return Number.isFinite(amount) ? amount : null;
}

/**
 * The most levels a record may hold: a Firebase database holds at most 32 below its root, and a
 * record starts two below it. Deeper is not an export of one, and the walks that make text storable
 * would run out of stack on it (a record 20,000 levels deep stopped the import halfway).
 */
export const MAX_RECORD_DEPTH = 32;

/** Whether a value holds objects or lists nested more than `limit` levels, found without recursion. */
export function isNestedDeeperThan(value: unknown, limit: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const objects: object[] = [value];
  const depths: number[] = [0];
  while (objects.length > 0) {
    const object = objects.pop() as Record<string, unknown>;
    const depth = depths.pop()!;
    if (depth >= limit) return true;
    for (const key in object) {
      const child = object[key];
      if (child !== null && typeof child === 'object') {
        objects.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

export function booleanOf(value: unknown): boolean {
  return value === true || value === 'true';
}

const IST_OFFSET_MS = 5.5 * 3600_000;
const DART_DATE = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;

/**
 * A time the apps wrote: Dart's DateTime.toString() of the phone's local time, India
 * ("2023-03-14 18:22:05.123456"), read as IST; also an ISO time with its zone, or milliseconds
 * since 1970 (what the console wrote as createdAt).
 */
export function timeOf(value: unknown): Date | null {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    return checked(new Date(value < 1e11 ? value * 1000 : value));
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (/^\d{10,13}$/.test(text)) return timeOf(Number(text));
  const dart = DART_DATE.exec(text);
  if (dart) {
    const [, y, mo, d, h, mi, s = '0', fraction = '0'] = dart;
    const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
    const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
    // Date.UTC rolls 2023-02-30 over to March: such a date was not a real one.
    const asWritten = new Date(utc);
    if (asWritten.getUTCMonth() !== Number(mo) - 1 || asWritten.getUTCDate() !== Number(d)) return null;
    if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
    return checked(new Date(utc - IST_OFFSET_MS));
  }
  if (/[zZ]|[+-]\d{2}:?\d{2}$/.test(text)) return checked(new Date(text));
  return null;
}

// A time outside these is a damaged value, not a trip's or an account's: years past 9999 (or a
// number past JavaScript's dates) would fail in PostgreSQL and stop the import.
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(2200, 0, 1);

function checked(date: Date): Date | null {
  const time = date.getTime();
  return Number.isNaN(time) || time < EARLIEST || time >= LATEST ? null : date;
}

const PUSH_CHARS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** The time a Firebase push id was made (its first 8 characters), or null for other keys. */
export function pushIdTime(key: string): Date | null {
  if (key.length !== 20) return null;
  let ms = 0;
  for (let i = 0; i < 8; i++) {
    const digit = PUSH_CHARS.indexOf(key[i]!);
    if (digit < 0) return null;
    ms = ms * 64 + digit;
  }
  // Push ids of 2012 onwards: anything else is a key that only looks like one.
  return ms > Date.UTC(2012, 0, 1) && ms < Date.UTC(2100, 0, 1) ? new Date(ms) : null;
}

/** A phone number as +91XXXXXXXXXX when it is an Indian mobile number in any usual spelling. */
export function phoneOf(value: unknown): string | null {
  const text = textOf(value);
  if (!text) return null;
  const digits = text.replace(/[\s()-]/g, '');
  if (/^\d{10}$/.test(digits)) return `+91${digits}`;
  if (/^0\d{10}$/.test(digits)) return `+91${digits.slice(1)}`;
  if (/^91\d{10}$/.test(digits)) return `+${digits}`;
  if (/^\+\d{8,15}$/.test(digits)) return digits;
  return text;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text PostgreSQL can store: NUL left out, a lone surrogate (half a character) made U+FFFD. */
export function storableText(text: string): string {
  return text.replaceAll('\u0000', '').replace(LONE_SURROGATE, '\uFFFD');
}

/** A value with every text in it, keys included, made storable (see storableText). */
export function withStorableText(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(withStorableText);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [storableText(key), withStorableText(child)]),
  );
}
