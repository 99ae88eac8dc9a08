import { stateLabel as stateName } from '@bmet/shared/labels';
import type { State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';

/**
 * The one place where the console formats dates, times, money and counts: staff work in India, so
 * every moment is shown in India Standard Time whatever the browser's zone, dates as DD/MM/YYYY,
 * times on the 12-hour clock, amounts in rupees with Indian digit grouping.
 */
export const INDIA_TIME_ZONE = 'Asia/Kolkata';

const dateFormat = new Intl.DateTimeFormat('en-IN', {
  timeZone: INDIA_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
});
const timeFormat = new Intl.DateTimeFormat('en-IN', {
  timeZone: INDIA_TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});
const wholeRupees = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 0 });
const rupeesAndPaise = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const countFormat = new Intl.NumberFormat('en-IN');

const asDate = (moment: string | Date) => (typeof moment === 'string' ? new Date(moment) : moment);

/** A country as stored ('India' whatever its case), in the current language; none is India. */
export function countryLabel(country: string | null): string {
  return !country || country.trim().toLowerCase() === 'india' ? m.countryIndia() : country;
}

/** A state's name in the current language ('tamil nadu' is shown as 'Tamil Nadu' or 'तमिलनाडु'), or '-' for none. */
export function stateLabel(state: State | null): string {
  return state ? stateName(state) : '-';
}

/** Rupees with Indian grouping, and two decimals when there are paise: ₹1,25,000 or ₹107.50. */
export function formatRupees(amount: number): string {
  const paise = Math.round(amount * 100) % 100 !== 0;
  return `₹${(paise ? rupeesAndPaise : wholeRupees).format(amount)}`;
}

/**
 * An Indian mobile number as staff read it: +91 98765 43210, whatever form it was stored in
 * (+91, 91 or 0 before it, spaces or dashes); any other number as it was written.
 */
export function formatPhone(phone: string): string {
  const digits = phone.replace(/[\s()-]/g, '');
  const match = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(digits);
  return match ? `+91 ${match[1]!.slice(0, 5)} ${match[1]!.slice(5)}` : phone;
}

/** A count with Indian grouping: 1,25,000. */
export function formatCount(count: number): string {
  return countFormat.format(count);
}

/** The day of a moment in India: 24/11/2026. */
export function formatDate(moment: string | Date): string {
  return dateFormat.format(asDate(moment));
}

/** The 12-hour clock's am and pm in the current language (Intl writes them in English for Hindi too). */
const dayPeriod = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/\b(am|pm)$/i, (period) => (period.toLowerCase() === 'am' ? m.timeAm() : m.timePm()));

/** The time of a moment in India: 9:05 am (९:०५ पूर्वाह्न is not used: digits stay Latin). */
export function formatTime(moment: string | Date): string {
  return dayPeriod(timeFormat.format(asDate(moment)));
}

/** A moment in India: 24/11/2026, 9:05 am. */
export function formatDateTime(moment: string | Date): string {
  return `${formatDate(moment)}, ${formatTime(moment)}`;
}

const hourFormat = new Intl.DateTimeFormat('en-IN', { timeZone: 'UTC', hour: 'numeric', hour12: true });

/** An hour of the day (0 to 23) on the 12-hour clock: 12 am, 9 am, 6 pm. */
export function formatHour(hour: number): string {
  return dayPeriod(hourFormat.format(Date.UTC(2000, 0, 1, hour)));
}

/** A calendar date (YYYY-MM-DD, as the API takes it) as staff read it: 24/11/2026. */
export function formatCalendarDate(date: string): string {
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year}`;
}

/**
 * A date typed as DD/MM/YYYY (or D/M/YYYY, with / - or . between) as the API takes it
 * (YYYY-MM-DD), or null when it is not a real date.
 */
export function parseCalendarDate(text: string): string | null {
  const match = /^\s*(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})\s*$/.exec(text);
  if (!match) return null;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    year < 1 ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  ) {
    return null;
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}
