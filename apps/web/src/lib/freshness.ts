import { m } from '@bmet/shared/paraglide/messages';

/** How recent a car's last report is: the colour of its marker. */
export const FRESHNESS = ['live', 'stale', 'offline', 'unknown'] as const;
export type Freshness = (typeof FRESHNESS)[number];

/** A car that reported within this long is live (the driver app reports every few seconds). */
export const LIVE_WITHIN_MS = 2 * 60_000;
/** Beyond this a car counts as offline: its driver has likely ended the shift or lost signal. */
export const STALE_WITHIN_MS = 30 * 60_000;

/** Readable on the map's light tiles, on its grey without tiles and in the dark scheme (white rim). */
export const FRESHNESS_COLORS: Record<Freshness, string> = {
  live: '#2b8a3e',
  stale: '#e67700',
  offline: '#c92a2a',
  unknown: '#5c5f66',
};

/** `at` in ms since the epoch, NaN when the time of the position is not known. */
export function freshnessOf(at: number, now: number): Freshness {
  if (Number.isNaN(at)) return 'unknown';
  const age = now - at;
  if (age <= LIVE_WITHIN_MS) return 'live';
  return age <= STALE_WITHIN_MS ? 'stale' : 'offline';
}

export function freshnessLabel(freshness: Freshness): string {
  switch (freshness) {
    case 'live':
      return m.fleetFreshnessLive();
    case 'stale':
      return m.fleetFreshnessStale();
    case 'offline':
      return m.fleetFreshnessOffline();
    case 'unknown':
      return m.fleetFreshnessUnknown();
  }
}
