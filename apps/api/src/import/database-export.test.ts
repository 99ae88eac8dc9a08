import { describe, expect, it } from 'vitest';
import { ExportSplitter, ExportStructureError } from './database-export';

/** Splits `text` fed in chunks of `size` bytes, answering each record as section/key = value. */
function split(text: string, size: number, wanted = (_section: string) => true): string[] {
  const found: string[] = [];
  const splitter = new ExportSplitter(wanted, (section, key, bytes) => {
    found.push(`${section}/${key}=${bytes?.toString('utf8') ?? '(too large)'}`);
  });
  const bytes = Buffer.from(text, 'utf8');
  for (let start = 0; start < bytes.length; start += size) splitter.push(bytes.subarray(start, start + size));
  return found;
}

const EXPORT = JSON.stringify({
  driver: {
    d1: { name: 'Ravi "R" \\ Kumar', note: 'braces } { and ] [ in text', history: { h: { price: '₹250' } } },
    'a"key': 42,
  },
  refers: { x: { y: 1 } },
  trips: { t1: 'a string', t2: null, t3: [1, { a: 2 }], म: true },
  list: [{ a: 1 }, 7],
});

describe('the export splitter', () => {
  it('gives every second-level record with its key, whatever the chunk boundaries', () => {
    const whole = split(EXPORT, EXPORT.length + 10);
    expect(whole).toEqual([
      `driver/d1=${JSON.stringify({ name: 'Ravi "R" \\ Kumar', note: 'braces } { and ] [ in text', history: { h: { price: '₹250' } } })}`,
      'driver/a"key=42',
      'refers/x={"y":1}',
      'trips/t1="a string"',
      'trips/t2=null',
      'trips/t3=[1,{"a":2}]',
      'trips/म=true',
      'list/0={"a":1}',
      'list/1=7',
    ]);
    // Every chunk size cuts a string, an escape or a multi-byte character somewhere.
    for (const size of [1, 2, 3, 5, 7, 13]) expect(split(EXPORT, size)).toEqual(whole);
  });

  it('skips the sections it is not asked for', () => {
    const found = split(EXPORT, 4, (section) => section === 'trips');
    expect(found.map((entry) => entry.split('=')[0])).toEqual([
      'trips/t1',
      'trips/t2',
      'trips/t3',
      'trips/म',
    ]);
  });

  it('keeps going through pretty-printed text', () => {
    const pretty = JSON.stringify(JSON.parse(EXPORT), null, 2);
    const records = split(pretty, 3).map((entry) => {
      const [name, ...value] = entry.split('=');
      return `${name}=${JSON.stringify(JSON.parse(value.join('=')))}`;
    });
    expect(records).toEqual(split(EXPORT, 1000));
  });
});

describe('the export as a whole', () => {
  const check = (text: string, size = 7) => {
    const splitter = new ExportSplitter(
      () => false,
      () => {},
    );
    const bytes = Buffer.from(text, 'utf8');
    try {
      for (let start = 0; start < bytes.length; start += size)
        splitter.push(bytes.subarray(start, start + size));
      splitter.finish();
      return 'whole';
    } catch (error) {
      if (!(error instanceof ExportStructureError)) throw error;
      return `byte ${error.byte}`;
    }
  };

  it('is whole with spaces or a byte order mark around it', () => {
    expect(check(EXPORT)).toBe('whole');
    expect(check(`\n  ${EXPORT}\n\n`)).toBe('whole');
    expect(check(`\uFEFF${EXPORT}`, 1)).toBe('whole');
  });

  it('names the byte where a file cut short, with garbage after it or two copies, breaks', () => {
    const bytes = Buffer.byteLength(EXPORT);
    const cut = EXPORT.slice(0, EXPORT.indexOf('trips') + 20);
    expect(check(cut)).toBe(`byte ${Buffer.byteLength(cut)}`);
    expect(check(EXPORT.slice(0, EXPORT.length / 2))).toBe(
      `byte ${Buffer.byteLength(EXPORT.slice(0, EXPORT.length / 2))}`,
    );
    expect(check(`${EXPORT}\n}garbage`)).toBe(`byte ${bytes + 1}`);
    expect(check(`${EXPORT}${EXPORT}`)).toBe(`byte ${bytes}`);
    expect(check(`${EXPORT} "text"`)).toBe(`byte ${bytes + 1}`);
    expect(check('')).toBe('byte 0');
  });
});

describe('a record too large to read', () => {
  it('is given as too large, its bytes not kept, and the records after it still come', () => {
    const found: string[] = [];
    const splitter = new ExportSplitter(
      () => true,
      (section, key, bytes) => found.push(`${section}/${key}=${bytes?.toString('utf8') ?? '(too large)'}`),
      100,
    );
    const text = JSON.stringify({ driver: { big: { history: 'x'.repeat(500) }, small: { name: 'Ravi' } } });
    const bytes = Buffer.from(text);
    for (let start = 0; start < bytes.length; start += 64) splitter.push(bytes.subarray(start, start + 64));
    splitter.finish();
    expect(found).toEqual(['driver/big=(too large)', 'driver/small={"name":"Ravi"}']);
  });
});
