import { describe, expect, it } from 'vitest';
import { normalisePhone, readSearchTerms } from './search-terms';

describe('normalisePhone', () => {
  it('reads an Indian phone number as its last ten digits, however it is written', () => {
    for (const typed of [
      '8548284189',
      '+91 85482 84189',
      '918548284189',
      '08548284189',
      '(+91) 85482-84189',
    ]) {
      expect(normalisePhone(typed), typed).toBe('8548284189');
    }
  });

  it('is no phone with fewer than ten digits, or with letters', () => {
    expect(normalisePhone('85482')).toBeNull();
    expect(normalisePhone('MH12AB1234')).toBeNull();
  });
});

describe('readSearchTerms', () => {
  it('matches a phone number as one word', () => {
    expect(readSearchTerms('+91 85482 84189')).toMatchObject({ words: ['8548284189'], phone: '8548284189' });
  });

  it('reads a registration number in any spacing, beside its words', () => {
    expect(readSearchTerms('mh-12 ab 1234')).toMatchObject({
      words: ['mh-12', 'ab', '1234'],
      registration: 'MH12AB1234',
    });
    expect(readSearchTerms('Temple Road').registration).toBeNull();
  });

  it('reads an id and a short id', () => {
    const id = '0b7f6c1e-8d2a-4f7e-9c3b-1a2b3c4d5e6f';
    expect(readSearchTerms(id.toUpperCase())).toMatchObject({ tripId: id, registration: null });
    expect(readSearchTerms('4D5E6F')).toMatchObject({ shortId: '4d5e6f' });
  });

  it('keeps at most five words, lowered', () => {
    expect(readSearchTerms('A b C d E f g').words).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
