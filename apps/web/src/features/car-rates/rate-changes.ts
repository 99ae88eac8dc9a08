import { RATE_FIELDS, type RateField } from '@bmet/shared/constants';
import { computeFare, isNightHour } from '@bmet/shared/fare';
import type { RateValues } from '@bmet/shared/schemas/car-rate';

/**
 * The trips a confirmation prices with the rates before and after a change: short by day, at
 * night, and long. The customer app's fare has no waiting part (see @bmet/shared/fare), so a trip
 * "with waiting" would cost the same as one without.
 */
export const SAMPLE_TRIPS = [
  { km: 5, hour: 12 },
  { km: 12, hour: 22 },
  { km: 25, hour: 18 },
] as const;
export type SampleTrip = (typeof SAMPLE_TRIPS)[number];

export type FieldChange = { field: RateField; before: number | null; after: number | null };

/** The fields whose value differs between two sets (every filled field of a set just added). */
export function changedRateFields(before: RateValues | null, after: RateValues): FieldChange[] {
  return RATE_FIELDS.filter((field) => (before?.[field] ?? null) !== after[field]).map((field) => ({
    field,
    before: before?.[field] ?? null,
    after: after[field],
  }));
}

/**
 * What the customer app charges for a trip with these rates, by the fare preview's function; null
 * when a field the fare needs is blank (the night charge only counts at night).
 */
export function sampleFare(values: RateValues | null, trip: SampleTrip): number | null {
  if (!values || values.basePrice === null || values.per_km === null) return null;
  const night = isNightHour(trip.hour);
  if (night && values.nightCharge === null) return null;
  return computeFare(
    { basePrice: values.basePrice, per_km: values.per_km, nightCharge: values.nightCharge ?? 0 },
    trip.km,
    trip.hour,
  );
}
