/** The periods the dashboard offers: today, the last 7 or 30 days (today included), or chosen days. */
export const PRESETS = ['today', '7d', '30d', 'custom'] as const;
export type Preset = (typeof PRESETS)[number];

export type Period = { from: string; to: string };

const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 5.5 * 3_600_000;

/** The date in India `daysAgo` days before `now` (YYYY-MM-DD), whatever the browser's zone. */
export function indianDate(daysAgo = 0, now = Date.now()): string {
  return new Date(now + IST_OFFSET_MS - daysAgo * DAY_MS).toISOString().slice(0, 10);
}

const PRESET_DAYS: Record<Exclude<Preset, 'custom'>, number> = { today: 1, '7d': 7, '30d': 30 };

/** The days of a preset, ending today in India. */
export function presetPeriod(preset: Exclude<Preset, 'custom'>, now = Date.now()): Period {
  return { from: indianDate(PRESET_DAYS[preset] - 1, now), to: indianDate(0, now) };
}

const isDate = (value: string | null): value is string => Boolean(value && /^\d{4}-\d{2}-\d{2}$/.test(value));

/**
 * The period of the address (`?period=7d`, or `?period=custom&from=...&to=...`): the last 7 days
 * when none is given; a custom period without its dates starts as the last 30 days.
 */
export function periodFromSearch(
  search: URLSearchParams,
  now = Date.now(),
): { preset: Preset; period: Period } {
  const asked = search.get('period');
  const preset: Preset = PRESETS.includes(asked as Preset) ? (asked as Preset) : '7d';
  if (preset !== 'custom') return { preset, period: presetPeriod(preset, now) };
  const fallback = presetPeriod('30d', now);
  const from = search.get('from');
  const to = search.get('to');
  return { preset, period: { from: isDate(from) ? from : fallback.from, to: isDate(to) ? to : fallback.to } };
}
