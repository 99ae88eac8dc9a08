/**
 * CSV as spreadsheets read it: RFC 4180 (CRLF lines, quotes where needed), UTF-8 with a
 * byte-order mark (without it Excel reads UTF-8 as the machine's code page, and Hindi and ₹ come
 * out garbled), cells that a spreadsheet would run as formulas neutralised, moments in India
 * Standard Time and amounts in rupees.
 */

/** The byte-order mark a CSV file starts with. */
export const UTF8_BOM = '\uFEFF';

export type CsvValue = string | number | boolean | null | undefined;

// What makes a spreadsheet read a cell as a formula (or a DDE command), OWASP's list: a cell of
// user text starting with one of these gets a leading apostrophe and stays text.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: empty for no value, text neutralised against formulas (numbers are ours and stay
 * numbers), quoted when it holds a quote, a comma or a line break.
 */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(values: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ',') + csvCell(values[i]);
  return `${line}\r\n`;
}

// India Standard Time is UTC+05:30 all year (no daylight saving): a fixed shift, no time zone
// database needed for a million rows.
const IST_OFFSET_MS = 330 * 60_000;

/**
 * A moment in India Standard Time, written year first so that no reader can take the day for the
 * month, and so that spreadsheets read it as a date and time: 2026-11-24 09:05:07.
 */
export function istDateTime(moment: Date | string | null | undefined): string {
  if (moment === null || moment === undefined) return '';
  const time = typeof moment === 'string' ? Date.parse(moment) : moment.getTime();
  return new Date(time + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** Today's date in India (YYYY-MM-DD), as export file names carry it. */
export function istDate(now = new Date()): string {
  return istDateTime(now).slice(0, 10);
}

/** An amount in rupees with its paise, as a plain number a spreadsheet can add up: 107.50. */
export function rupees(amount: number | null | undefined): string {
  return amount === null || amount === undefined || !Number.isFinite(amount) ? '' : amount.toFixed(2);
}

/** A number with at most `digits` decimals, without trailing zeros: 12.35, 7. */
export function decimal(value: number | null | undefined, digits = 2): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return String(Number(value.toFixed(digits)));
}
