import { describe, expect, it } from 'vitest';
import { monthName, recentMonths } from './months';

describe('recentMonths', () => {
  it('counts back twelve months from this one in India, across a year end', () => {
    // 31 January 2027, 20:00 UTC: already 1 February in India.
    expect(recentMonths(new Date('2027-01-31T20:00:00Z')).slice(0, 3)).toEqual([
      '2027-02',
      '2027-01',
      '2026-12',
    ]);
    const months = recentMonths(new Date('2026-11-29T10:00:00Z'));
    expect(months).toHaveLength(12);
    expect(months[0]).toBe('2026-11');
    expect(months[11]).toBe('2025-12');
  });
});

describe('monthName', () => {
  it('names a month as staff read it', () => {
    expect(monthName('2026-11')).toBe('November 2026');
  });
});
