/** The values of a rate set that the customer app's fare uses. */
export type FareRates = { basePrice: number; per_km: number; nightCharge: number };

/** Night charge applies from 21:00 up to, not including, 04:00. */
export const NIGHT_STARTS_AT_HOUR = 21;
export const NIGHT_ENDS_AT_HOUR = 4;

/** Whether the customer app adds the night charge to a ride that starts at this hour (0 to 23). */
export function isNightHour(hour: number): boolean {
  return hour >= NIGHT_STARTS_AT_HOUR || hour < NIGHT_ENDS_AT_HOUR;
}

/**
 * The fare the customer app charges: round(basePrice) + per_km x round(km), plus nightCharge from
 * 21:00 to 04:00. The total is not rounded further, as in the app.
 */
export function computeFare(rates: FareRates, km: number, hour: number): number {
  return fareParts(rates, km, hour).total;
}

const INDIA_OFFSET_MS = 330 * 60_000;

/** The hour of the day (0 to 23) in India at this moment, as the customer app's clock reads it. */
export function indianHour(moment: Date): number {
  return new Date(moment.getTime() + INDIA_OFFSET_MS).getUTCHours();
}

/** How a fare is made, part by part, as the trip panel shows it. */
export type FareParts = {
  base: number;
  perKm: number;
  /** The distance charged: the trip's, rounded to whole km as the app rounds it. */
  km: number;
  distance: number;
  /** The night charge added (0 by day). */
  night: number;
  total: number;
};

/** computeFare, part by part; the parts add up to computeFare's total. */
export function fareParts(rates: FareRates, km: number, hour: number): FareParts {
  const base = Math.round(rates.basePrice);
  const charged = Math.round(km);
  const night = isNightHour(hour) ? rates.nightCharge : 0;
  const distance = rates.per_km * charged;
  return { base, perKm: rates.per_km, km: charged, distance, night, total: base + distance + night };
}
