import { describe, expect, it } from 'vitest';
import { PgDialect } from 'drizzle-orm/pg-core';
import { splitPeriod } from './period';

const dialect = new PgDialect();
/** A part's sign and its conditions' bound values, to see which way a day was cut. */
const shape = (period: { from: string; to: string }, now: number) => {
  const { days, raw } = splitPeriod(period, now);
  return {
    days,
    raw: raw.map((part) => ({
      sign: part.sign,
      bounds: part.conditions.map((condition) => dialect.sqlToQuery(condition).params[0]),
    })),
  };
};

const NOW = Date.parse('2026-11-24T18:00:00+05:30');

describe('splitPeriod', () => {
  it('reads whole days only from the daily figures', () => {
    expect(shape({ from: '2026-11-01', to: '2026-11-24' }, NOW)).toEqual({
      days: { first: '2026-11-01', last: '2026-11-24' },
      raw: [],
    });
  });

  it('takes away what comes after a period that ends now: nothing to read', () => {
    const to = '2026-11-24T12:30:00.000Z'; // 18:00 in India
    expect(shape({ from: '2026-11-01', to }, NOW)).toEqual({
      days: { first: '2026-11-01', last: '2026-11-24' },
      raw: [{ sign: -1, bounds: [to, '2026-11-25T00:00:00+05:30'] }],
    });
  });

  it('reads a short end from the trips and a long one by taking the rest of its day away', () => {
    const from = '2026-11-01T22:00:00+05:30';
    const to = '2026-11-20T20:00:00+05:30';
    expect(shape({ from, to }, NOW)).toEqual({
      days: { first: '2026-11-02', last: '2026-11-20' },
      raw: [
        { sign: 1, bounds: [from, to, '2026-11-02T00:00:00+05:30'] },
        { sign: -1, bounds: [to, '2026-11-21T00:00:00+05:30'] },
      ],
    });
  });

  it('reads years below 100 as themselves (Date.UTC would read 0099 as 1999)', () => {
    expect(shape({ from: '0099-12-30', to: '0099-12-31' }, NOW)).toEqual({
      days: { first: '0099-12-30', last: '0099-12-31' },
      raw: [],
    });
  });

  it('reads a short period within one day from the trips', () => {
    const period = { from: '2026-11-20T10:00:00+05:30', to: '2026-11-20T11:00:00+05:30' };
    expect(shape(period, NOW)).toEqual({ days: null, raw: [{ sign: 1, bounds: [period.from, period.to] }] });
  });

  it('reads most of one day as the day without its two ends', () => {
    const period = { from: '2026-11-20T01:00:00+05:30', to: '2026-11-20T23:00:00+05:30' };
    expect(shape(period, NOW)).toEqual({
      days: { first: '2026-11-20', last: '2026-11-20' },
      raw: [
        { sign: -1, bounds: ['2026-11-20T00:00:00+05:30', period.from] },
        { sign: -1, bounds: [period.to, '2026-11-21T00:00:00+05:30'] },
      ],
    });
  });
});
