import { indianDayOf } from '@bmet/shared/grievance-rules';
import { currentLanguage } from './language';

/** The last twelve months in India, this one first: `2026-11`. */
export function recentMonths(now = new Date()): string[] {
  const [year, month] = indianDayOf(now).split('-').map(Number) as [number, number];
  return Array.from({ length: 12 }, (_, back) => {
    const index = year * 12 + (month - 1) - back;
    return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
  });
}

/** `2026-11` as staff read it: November 2026, नवंबर 2026. */
export function monthName(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(currentLanguage() === 'hi' ? 'hi-IN' : 'en-IN', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(Date.UTC(year, number - 1, 15)));
}
