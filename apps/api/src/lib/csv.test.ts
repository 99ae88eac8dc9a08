import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, decimal, istDate, istDateTime, rupees } from './csv';

describe('csvCell', () => {
  it('writes plain values as they are and no value as an empty cell', () => {
    expect(csvCell('Ravi Kumar')).toBe('Ravi Kumar');
    expect(csvCell('रवि कुमार ₹')).toBe('रवि कुमार ₹');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(-3.5)).toBe('-3.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });

  it('quotes a cell holding a quote, a comma or a line break, doubling its quotes (RFC 4180)', () => {
    expect(csvCell('Rao, Sunny')).toBe('"Rao, Sunny"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
  });

  it('neutralises text a spreadsheet would run as a formula, with a leading apostrophe', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+91 98123 45678')).toBe("'+91 98123 45678");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tcmd')).toBe("'\tcmd");
    expect(csvCell('\rcmd')).toBe('"\'\rcmd"');
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    // Only at the start: elsewhere these characters are harmless.
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(' =1')).toBe(' =1');
  });
});

describe('csvLine', () => {
  it('joins cells with commas and ends with CRLF', () => {
    expect(csvLine(['a', 1, null, 'b,c', true])).toBe('a,1,,"b,c",true\r\n');
    expect(csvLine([])).toBe('\r\n');
  });
});

describe('times and amounts', () => {
  it('writes a moment in India Standard Time, year first', () => {
    expect(istDateTime(new Date('2026-01-15T20:05:07.123Z'))).toBe('2026-01-16 01:35:07');
    expect(istDateTime('2026-11-24T00:00:00.000Z')).toBe('2026-11-24 05:30:00');
    expect(istDateTime(null)).toBe('');
    expect(istDate(new Date('2026-11-24T18:29:59Z'))).toBe('2026-11-24');
    expect(istDate(new Date('2026-11-24T18:30:00Z'))).toBe('2026-11-25');
  });

  it('writes rupees with their paise and distances without trailing zeros', () => {
    expect(rupees(107.5)).toBe('107.50');
    expect(rupees(125000)).toBe('125000.00');
    expect(rupees(null)).toBe('');
    expect(rupees(Number.NaN)).toBe('');
    expect(decimal(12.345)).toBe('12.35');
    expect(decimal(7)).toBe('7');
    expect(decimal(null)).toBe('');
  });
});
