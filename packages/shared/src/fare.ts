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
  const night = isNightHour(hour) ? rates.nightCharge : 0;
  return Math.round(rates.basePrice) + rates.per_km * Math.round(km) + night;
}
