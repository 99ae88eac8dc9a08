import { describe, expect, it } from 'vitest';
import { computeFare, fareParts, indianHour, isNightHour } from './fare';

const sedan = { basePrice: 70, per_km: 15, nightCharge: 40 };

describe('computeFare', () => {
  it('charges round(basePrice) + per_km x round(km) by day', () => {
    expect(computeFare(sedan, 10, 12)).toBe(70 + 15 * 10);
  });

  it('adds the night charge from 21:00 up to 04:00', () => {
    expect(computeFare(sedan, 10, 20)).toBe(220);
    expect(computeFare(sedan, 10, 21)).toBe(260);
    expect(computeFare(sedan, 10, 23)).toBe(260);
    expect(computeFare(sedan, 10, 0)).toBe(260);
    expect(computeFare(sedan, 10, 3)).toBe(260);
    expect(computeFare(sedan, 10, 4)).toBe(220);
  });

  it('rounds the distance half up before multiplying', () => {
    expect(computeFare(sedan, 7.4, 12)).toBe(70 + 15 * 7);
    expect(computeFare(sedan, 7.5, 12)).toBe(70 + 15 * 8);
    expect(computeFare(sedan, 0.4, 12)).toBe(70);
  });

  it('rounds the base price but not per_km nor the total', () => {
    expect(computeFare({ basePrice: 49.5, per_km: 12.5, nightCharge: 0 }, 3, 12)).toBe(50 + 37.5);
    expect(computeFare({ basePrice: 49.4, per_km: 12.25, nightCharge: 10.5 }, 2, 22)).toBe(49 + 24.5 + 10.5);
  });

  it('charges the base price alone for no distance', () => {
    expect(computeFare(sedan, 0, 12)).toBe(70);
  });
});

describe('isNightHour', () => {
  it('is true for 21 to 23 and 0 to 3 only', () => {
    const night = Array.from({ length: 24 }, (_, hour) => hour).filter(isNightHour);
    expect(night).toEqual([0, 1, 2, 3, 21, 22, 23]);
  });
});

describe('fareParts', () => {
  it('names each part of the fare, adding up to computeFare', () => {
    expect(fareParts(sedan, 12.4, 22)).toEqual({
      base: 70,
      perKm: 15,
      km: 12,
      distance: 180,
      night: 40,
      total: 290,
    });
    expect(fareParts(sedan, 12.4, 22).total).toBe(computeFare(sedan, 12.4, 22));
    expect(fareParts(sedan, 12.4, 9).night).toBe(0);
  });
});

describe('indianHour', () => {
  it('reads the hour in India, whatever the machine’s time zone', () => {
    expect(indianHour(new Date('2026-03-14T15:40:00Z'))).toBe(21);
    expect(indianHour(new Date('2026-03-14T18:29:59Z'))).toBe(23);
    expect(indianHour(new Date('2026-03-14T18:30:00Z'))).toBe(0);
  });
});
