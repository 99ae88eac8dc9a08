import { describe, expect, it } from 'vitest';
import {
  formatRegistration,
  isIndianRegistration,
  isPastAgeLimit,
  makeAndModel,
  normaliseRegistration,
} from './vehicle-rules';

describe('registration numbers', () => {
  it('are one number in any spacing, case or punctuation', () => {
    for (const typed of ['MH 12 AB 1234', 'mh-12-ab-1234', ' MH12AB1234 ', 'Mh.12.Ab.1234']) {
      expect(normaliseRegistration(typed)).toBe('MH12AB1234');
    }
  });

  it('take the state series and the BH series, and nothing else', () => {
    for (const valid of ['MH12AB1234', 'DL1CAB1234', 'KA051234', 'TN09BC1', '22BH1234AA', '23BH0001C']) {
      expect(isIndianRegistration(valid), valid).toBe(true);
    }
    for (const invalid of [
      '',
      'ABC',
      'MH12',
      'MH121',
      'KA05123',
      '12MH1234',
      'MH12ABCD1234',
      '22BH12345A',
      'MH12AB12345',
    ]) {
      expect(isIndianRegistration(invalid), invalid).toBe(false);
    }
  });

  it('are written as on the plate', () => {
    expect(formatRegistration('MH12AB1234')).toBe('MH 12 AB 1234');
    expect(formatRegistration('KA051234')).toBe('KA 05 1234');
    expect(formatRegistration('22BH1234AA')).toBe('22 BH 1234 AA');
    expect(formatRegistration('WEIRD-1')).toBe('WEIRD-1');
  });
});

describe('make and model', () => {
  it('name the make once', () => {
    expect(makeAndModel('Tata', 'Tata Tiago EV')).toBe('Tata Tiago EV');
    expect(makeAndModel('Tata', 'Nexon EV')).toBe('Tata Nexon EV');
    expect(makeAndModel(null, 'Nexon EV')).toBe('Nexon EV');
    expect(makeAndModel('MG', null)).toBe('MG');
    expect(makeAndModel(null, null)).toBe('');
  });
});

describe('the age limit', () => {
  it('is passed the day after the limit’s years end', () => {
    expect(isPastAgeLimit('2018-11-29', 8, '2026-11-29')).toBe(false);
    expect(isPastAgeLimit('2018-11-28', 8, '2026-11-29')).toBe(true);
    expect(isPastAgeLimit('2020-02-29', 6, '2026-03-01')).toBe(true);
  });
});
