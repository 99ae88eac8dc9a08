import { describe, expect, it } from 'vitest';
import { readTripListAddress, tripListPath } from './trip-list-address';

describe('the trip list address', () => {
  it('carries filters to the list and back', () => {
    const filters = {
      status: 'completed' as const,
      carType: 'suv' as const,
      from: '2026-11-01',
      to: '2026-11-24',
      franchiseId: '7d8e1f7a-1111-4c2b-9a1e-0a0b0c0d0e0f',
      franchiseName: 'Pune EV Cabs',
      state: 'tamil nadu' as const,
      hour: 0,
    };
    const path = tripListPath(filters);
    expect(path.startsWith('/trips?')).toBe(true);
    expect(readTripListAddress(new URLSearchParams(path.slice('/trips?'.length)))).toEqual(filters);
    expect(tripListPath({})).toBe('/trips');
  });

  it('leaves out what the list does not know', () => {
    const junk = new URLSearchParams(
      'status=finished&carType=bus&from=yesterday&franchiseId=1&franchiseName=x&state=atlantis&hour=24&paid=yes',
    );
    expect(readTripListAddress(junk)).toEqual({});
  });
});
