import { m } from '@bmet/shared/paraglide/messages';
import type { FareRuleField } from '@bmet/shared/schemas/fare-rule';
import { formatCount, formatRupees, INDIA_TIME_ZONE } from '../../lib/format';
import { currentLanguage } from '../../lib/language';

/**
 * The eight values of a car type's rules, in the contract's order. Written out here rather than
 * imported: the schema module brings zod, which this screen does without (the server checks).
 */
export const FIELDS = [
  'notifiedBaseFare',
  'notifiedPerKm',
  'maxMultiple',
  'minMultiple',
  'cancellationPercent',
  'cancellationCap',
  'driverShareOwnVehicle',
  'driverShareCompanyVehicle',
] as const satisfies readonly FareRuleField[];

/** What a value counts: rupees, a multiple of the notified fare, or a percent. */
type Unit = 'rupees' | 'multiple' | 'percent';

const FIELD_INFO: Record<FareRuleField, { label: () => string; unit: Unit; max: number }> = {
  notifiedBaseFare: { label: m.fareRulesNotifiedBaseFare, unit: 'rupees', max: 100_000 },
  notifiedPerKm: { label: m.fareRulesNotifiedPerKm, unit: 'rupees', max: 100_000 },
  maxMultiple: { label: m.fareRulesMaxMultiple, unit: 'multiple', max: 10 },
  minMultiple: { label: m.fareRulesMinMultiple, unit: 'multiple', max: 1 },
  cancellationPercent: { label: m.fareRulesCancellationPercent, unit: 'percent', max: 100 },
  cancellationCap: { label: m.fareRulesCancellationCap, unit: 'rupees', max: 100_000 },
  driverShareOwnVehicle: { label: m.fareRulesDriverShareOwn, unit: 'percent', max: 100 },
  driverShareCompanyVehicle: { label: m.fareRulesDriverShareCompany, unit: 'percent', max: 100 },
};

/** How a field is named on screen, in the current language. */
export const fieldLabel = (field: FareRuleField): string => FIELD_INFO[field].label();

/** The largest value the server takes for a field. */
export const fieldMax = (field: FareRuleField): number => FIELD_INFO[field].max;

/** The hint under a field of the form: its unit and bounds. */
export function fieldHint(field: FareRuleField): string {
  const { unit, max } = FIELD_INFO[field];
  if (unit === 'rupees') return m.ratesFieldRupeesRange({ max: formatCount(max) });
  if (unit === 'percent') return m.fareRulesPercentHint();
  return field === 'minMultiple' ? m.fareRulesMinMultipleHint() : m.fareRulesMaxMultipleHint({ max });
}

/** A value as staff read it: ₹1,250, ×1.5 or 80%. */
export function formatValue(field: FareRuleField, value: number): string {
  const { unit } = FIELD_INFO[field];
  if (unit === 'rupees') return formatRupees(value);
  if (unit === 'multiple') return `×${formatCount(value)}`;
  return `${formatCount(value)}%`;
}

/** Today's date in India, as the API takes it (YYYY-MM-DD): rules take effect on India's days. */
export function todayInIndia(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: INDIA_TIME_ZONE }).format(now);
}

/** The month of a YYYY-MM-DD date and the months before it, newest first: 2026-03, 2026-02, ... */
export function monthsUntil(day: string, count: number): string[] {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, back) => {
    const date = new Date(Date.UTC(year, month - 1 - back, 1));
    return `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;
  });
}

/** A month (YYYY-MM) named in the current language: March 2026, मार्च 2026. */
export function formatMonth(month: string): string {
  const [year, number] = month.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(currentLanguage() === 'hi' ? 'hi-IN' : 'en-IN', {
    timeZone: 'UTC',
    month: 'long',
    year: 'numeric',
  }).format(Date.UTC(year, number - 1, 1));
}
