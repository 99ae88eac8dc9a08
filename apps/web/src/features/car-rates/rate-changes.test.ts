import { describe, expect, it } from 'vitest';
import { computeFare } from '@bmet/shared/fare';
import { changedRateFields, SAMPLE_TRIPS, sampleFare } from './rate-changes';

const sedan = {
  per_km: 15,
  basePrice: 70,
  nightCharge: 40,
  waitingCharge: 2,
  rushHour: 1.2,
  surCharges: 10,
  extra: 0,
};

describe('changedRateFields', () => {
  it('lists the fields that differ, with their values before and after', () => {
    expect(changedRateFields(sedan, { ...sedan, basePrice: 75, extra: 0 })).toEqual([
      { field: 'basePrice', before: 70, after: 75 },
    ]);
  });

  it('lists every filled field of a set just added', () => {
    expect(changedRateFields(null, { ...sedan, extra: null })).toHaveLength(6);
  });
});

describe('sampleFare', () => {
  it('prices the sample trips with the preview’s fare function', () => {
    expect(SAMPLE_TRIPS.map((trip) => sampleFare(sedan, trip))).toEqual(
      SAMPLE_TRIPS.map((trip) => computeFare(sedan, trip.km, trip.hour)),
    );
    // 12 km at 22:00 carries the night charge.
    expect(sampleFare(sedan, SAMPLE_TRIPS[1])).toBe(70 + 15 * 12 + 40);
  });

  it('gives no fare when a field the fare needs is blank', () => {
    expect(sampleFare(null, SAMPLE_TRIPS[0])).toBeNull();
    expect(sampleFare({ ...sedan, per_km: null }, SAMPLE_TRIPS[0])).toBeNull();
    // A blank night charge matters at night only.
    expect(sampleFare({ ...sedan, nightCharge: null }, SAMPLE_TRIPS[0])).toBe(70 + 15 * 5);
    expect(sampleFare({ ...sedan, nightCharge: null }, SAMPLE_TRIPS[1])).toBeNull();
  });
});
