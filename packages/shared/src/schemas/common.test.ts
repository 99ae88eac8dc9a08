import { describe, expect, it } from 'vitest';
import { DAY_RANGE, OFFSET_RANGE } from '../constants';
import { m } from '../paraglide/messages.js';
import { calendarDaySchema, momentSchema } from './common';

const day = calendarDaySchema(() => 'not a day');
const moment = momentSchema(() => 'not a moment');
const messagesOf = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((issue) => issue.message) ?? [];

describe('calendarDaySchema', () => {
  it('takes every real day of DAY_RANGE, both ends included', () => {
    for (const value of [DAY_RANGE.first, '2024-02-29', '2026-11-24', DAY_RANGE.last]) {
      expect(day.safeParse(value).success, value).toBe(true);
    }
  });

  it('refuses days outside it, saying the range, and other forms with their own message', () => {
    for (const value of ['0000-01-01', '1899-12-31', '3000-01-01', '9999-12-31']) {
      expect(messagesOf(day.safeParse(value)), value).toEqual([m.dateOutOfRange(DAY_RANGE)]);
    }
    for (const value of ['2026-02-30', 'yesterday', '']) {
      expect(messagesOf(day.safeParse(value)), value).toEqual(['not a day']);
    }
  });
});

describe('momentSchema', () => {
  it('takes moments on the range’s days at every offset in use', () => {
    for (const value of [
      `${DAY_RANGE.last}T23:59:59-12:00`,
      `${DAY_RANGE.first}T00:00:00+14:00`,
      '2026-11-24T10:00:00.123456+05:30',
      '2026-11-24T10:00:00Z',
    ]) {
      expect(moment.safeParse(value).success, value).toBe(true);
    }
  });

  it('refuses days outside the range and offsets PostgreSQL cannot read', () => {
    for (const value of ['9999-12-31T23:59:59-12:00', '0000-01-01T00:00:00Z', '1899-12-31T23:59:59+14:00']) {
      expect(messagesOf(moment.safeParse(value)), value).toEqual([m.dateOutOfRange(DAY_RANGE)]);
    }
    for (const value of [
      '2026-11-24T10:00:00+23:59',
      '2026-11-24T10:00:00-12:01',
      '2026-11-24T10:00:00+14:30',
    ]) {
      expect(messagesOf(moment.safeParse(value)), value).toEqual([m.offsetOutOfRange(OFFSET_RANGE)]);
    }
    expect(messagesOf(moment.safeParse('yesterday'))).toEqual(['not a moment']);
  });
});
