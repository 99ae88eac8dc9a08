import { afterEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale } from '@bmet/shared/paraglide/runtime';
import { STATES } from '@bmet/shared/constants';
import {
  formatCalendarDate,
  countryLabel,
  formatCount,
  formatHour,
  formatPhone,
  formatDate,
  formatDateTime,
  formatRupees,
  formatTime,
  parseCalendarDate,
  stateLabel,
} from './format';

describe('stateLabel', () => {
  it('capitalizes each word of a state and nothing else', () => {
    expect(stateLabel('tamil nadu')).toBe('Tamil Nadu');
    expect(stateLabel('goa')).toBe('Goa');
    for (const state of STATES) expect(stateLabel(state).toLowerCase()).toBe(state);
  });

  it('shows a dash for an account without a state', () => {
    expect(stateLabel(null)).toBe('-');
  });
});

describe('money and counts', () => {
  it('groups digits the Indian way and shows two decimals only when there are paise', () => {
    expect(formatRupees(220)).toBe('₹220');
    expect(formatRupees(107.5)).toBe('₹107.50');
    expect(formatRupees(125000)).toBe('₹1,25,000');
    expect(formatRupees(1234567.891)).toBe('₹12,34,567.89');
    expect(formatCount(1000000)).toBe('10,00,000');
  });
});

describe('dates and times', () => {
  // The tests run in whatever zone the machine has; these moments cross a day boundary in IST.
  it('shows moments in India Standard Time, DD/MM/YYYY and the 12-hour clock', () => {
    expect(formatDate('2026-11-24T20:35:00Z')).toBe('25/11/2026');
    expect(formatTime('2026-11-24T20:35:00Z')).toBe('2:05 am');
    expect(formatDateTime('2026-11-24T03:35:00Z')).toBe('24/11/2026, 9:05 am');
    expect(formatDateTime('2026-11-24T12:30:00Z')).toBe('24/11/2026, 6:00 pm');
  });

  it('reads and writes calendar dates as DD/MM/YYYY', () => {
    expect(formatCalendarDate('2026-01-05')).toBe('05/01/2026');
    expect(parseCalendarDate('05/01/2026')).toBe('2026-01-05');
    expect(parseCalendarDate('5-1-2026')).toBe('2026-01-05');
    expect(parseCalendarDate(' 29.02.2028 ')).toBe('2028-02-29');
    for (const wrong of ['29/02/2026', '31/04/2026', '00/01/2026', '01/13/2026', '2026-01-05', '1/1/26', ''])
      expect(parseCalendarDate(wrong), wrong).toBeNull();
  });
});

describe('formatPhone', () => {
  it('writes an Indian mobile number as +91 98765 43210, whatever form it came in', () => {
    for (const stored of ['9876543210', '+919876543210', '91 98765 43210', '09876543210', '+91-98765-43210'])
      expect(formatPhone(stored)).toBe('+91 98765 43210');
  });

  it('leaves any other number as it was written', () => {
    expect(formatPhone('022 2345 6789')).toBe('022 2345 6789');
    expect(formatPhone('12345')).toBe('12345');
  });
});

describe('in Hindi', () => {
  afterEach(() => overwriteGetLocale(() => 'en'));

  it('names am and pm in Hindi, and India as भारत', () => {
    overwriteGetLocale(() => 'hi');
    expect(formatTime('2026-11-24T20:35:00Z')).toBe('2:05 पूर्वाह्न');
    expect(formatHour(21)).toBe('9 अपराह्न');
    expect(countryLabel(null)).toBe('भारत');
    expect(countryLabel('INDIA')).toBe('भारत');
    expect(countryLabel('Nepal')).toBe('Nepal');
  });
});
