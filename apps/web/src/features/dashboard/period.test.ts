import { describe, expect, it } from 'vitest';
import { indianDate, periodFromSearch, presetPeriod } from './period';

// 23:00 on 24/11/2026 in UTC is already 25/11 in India.
const NOW = Date.parse('2026-11-24T23:00:00Z');

describe('the dashboard period', () => {
  it('counts days in India whatever the browser zone', () => {
    expect(indianDate(0, NOW)).toBe('2026-11-25');
    expect(presetPeriod('today', NOW)).toEqual({ from: '2026-11-25', to: '2026-11-25' });
    expect(presetPeriod('7d', NOW)).toEqual({ from: '2026-11-19', to: '2026-11-25' });
    expect(presetPeriod('30d', NOW)).toEqual({ from: '2026-10-27', to: '2026-11-25' });
  });

  it('reads the address: the last 7 days by default, custom dates when given', () => {
    expect(periodFromSearch(new URLSearchParams(''), NOW)).toEqual({
      preset: '7d',
      period: { from: '2026-11-19', to: '2026-11-25' },
    });
    expect(periodFromSearch(new URLSearchParams('period=custom&from=2026-01-01&to=2026-01-31'), NOW)).toEqual(
      {
        preset: 'custom',
        period: { from: '2026-01-01', to: '2026-01-31' },
      },
    );
    expect(periodFromSearch(new URLSearchParams('period=custom&from=junk'), NOW).period).toEqual(
      presetPeriod('30d', NOW),
    );
  });
});
