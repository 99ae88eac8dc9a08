import fc from 'fast-check';
import {
  ACCOUNT_SORTS,
  AUDIT_SORTS,
  COMPLIANCE_SORTS,
  CUSTOMER_SORTS,
  DRIVER_SORTS,
  TRIP_SORTS,
} from '@bmet/shared/schemas/sort';

/**
 * Request parts for the fuzz suite: values built from a route's own JSON Schema (as its OpenAPI
 * document gives it), and hostile values beyond any schema.
 */

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
};

/**
 * Ids of real records (in and out of the callers' scopes), so that valid requests reach rows, and
 * cursors each list (by its route) handed out, for forgeries that keep a real cursor's shape.
 */
export type FuzzContext = { ids: string[]; emails: string[]; cursors: Record<string, string[]> };

const MAX_DEPTH = 6;

function deeplyNested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

/** Strings that broke servers before: storage, encoding, parsing and size edge cases. */
export const hostileStrings: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'ab\ud800cd',
  '\udc00',
  '\ud83d',
  'x\udfff',
  '\ud800\ud800',
  'é\u0000',
  '😀👨‍👩‍👧',
  'हिन्दी पाठ',
  '\u202e\u200b\ufeff',
  '__proto__',
  'constructor',
  '%00',
  '%zz',
  '../../etc/passwd',
  "' or 1=1 --",
  '\\',
  '"',
  '<script>alert(1)</script>',
  '=HYPERLINK("x")',
  'a'.repeat(300),
  'x'.repeat(70_000),
  '9'.repeat(400),
  '-1',
  'NaN',
  'Infinity',
  '1e309',
  '0x10',
  'true',
  'null',
  '2026-02-30',
  '0000-01-01',
  '9999-12-31',
  '0000-01-01T00:00:00.000000Z',
  '9999-12-31T23:59:59-12:00',
  '0001-01-01T00:00:00+14:00',
  '9223372036854775808',
  '00000000-0000-0000-0000-000000000000',
];

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * Years at and past the ends of what the API accepts, JavaScript's four-digit ISO dates and
 * PostgreSQL hold (no year 0; the day after 9999-12-31 has five digits).
 */
const EDGE_YEARS = [0, 1, 1899, 1900, 1969, 1970, 2999, 3000, 9998, 9999];
/** Offsets as far as ISO 8601 goes: a moment near the end of a year moves into the next in UTC. */
const OFFSETS = ['Z', '+00:00', '+05:30', '-12:00', '+14:00', '-23:59', '+23:59'];

/** A calendar day (YYYY-MM-DD): mostly recent, often at or past the ends of the calendar. */
export const calendarDay: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2030-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10)),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...EDGE_YEARS), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
      .map(([year, month, day]) => `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`),
  },
  { weight: 1, arbitrary: fc.constantFrom('0000-01-01', '0001-01-01', '9999-12-30', '9999-12-31') },
);

/** An ISO 8601 moment with its offset: any instant, or a day at the calendar's ends at any offset. */
export const moment: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()) },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        calendarDay,
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('', '.000', '.999999'),
        fc.constantFrom(...OFFSETS),
      )
      .map(
        ([day, hour, minute, fraction, offset]) =>
          `${day}T${pad(hour, 2)}:${pad(minute, 2)}:59${fraction}${offset}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '9999-12-31T23:59:59-12:00',
      '9999-12-31T23:59:59.999999Z',
      '0000-01-01T00:00:00Z',
      '0001-01-01T00:00:00+14:00',
    ),
  },
);

/** Numbers past what a bigint column, a JavaScript number or a JSON parser holds exactly. */
const hugeNumber: fc.Arbitrary<string | number> = fc.oneof(
  fc.constantFrom(
    '9223372036854775807',
    '9223372036854775808',
    '9999999999999999999',
    '18446744073709551616',
    '9'.repeat(40),
  ),
  fc.bigInt({ min: 0n, max: 10n ** 19n - 1n }).map(String),
  fc.constantFrom(2 ** 63, 2 ** 64, Number.MAX_SAFE_INTEGER + 2, 1e21, 1e308, -(2 ** 63) - 1025),
);

/** A cursor's timestamp at the calendar's ends, written as the lists write them. */
const cursorTimestamp = fc.constantFrom(
  '0000-01-01T00:00:00.000000Z',
  '0001-01-01T00:00:00.000000Z',
  '9999-12-31T23:59:59.999999Z',
  '2026-01-01T00:00:00.000000Z',
);

/** Any JSON value a hostile client could send where a schema expects something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: 'small' },
  fc.constantFrom(...hostileStrings),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(null, true, false, 0, -1, 1.5, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308, [], {}, [null], {
    __proto__: null,
    constructor: { prototype: { admin: true } },
  }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constant(deeplyNested(300)),
  fc.constant(Array.from({ length: 5000 }, (_, i) => i)),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 8 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 4 }),
);

function typeOf(schema: JsonSchema): string | undefined {
  return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type;
}

/** A value that fits the schema (mostly: patterns are not honoured, and ids come from the world). */
export function valueFor(
  schema: JsonSchema,
  context: FuzzContext,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const options = schema.anyOf ?? schema.oneOf;
  if (options?.length)
    return fc.oneof(...options.map((option) => valueFor(option, context, name, depth + 1)));
  if (schema.allOf?.length)
    return valueFor(Object.assign({}, ...schema.allOf) as JsonSchema, context, name, depth);
  const base = baseValueFor(schema, context, name, depth);
  return schema.nullable || (Array.isArray(schema.type) && schema.type.includes('null'))
    ? fc.oneof({ weight: 4, arbitrary: base }, { weight: 1, arbitrary: fc.constant(null) })
    : base;
}

function baseValueFor(
  schema: JsonSchema,
  context: FuzzContext,
  name: string,
  depth: number,
): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (depth > MAX_DEPTH) return fc.constant(null);
  switch (typeOf(schema)) {
    case 'string': {
      if (schema.format === 'uuid') return fc.oneof(fc.constantFrom(...context.ids), fc.uuid());
      if (schema.format === 'email' || /email/i.test(name)) {
        return fc.oneof(fc.constantFrom(...context.emails), fc.emailAddress());
      }
      if (schema.format === 'date-time') return moment;
      if (schema.format === 'date') return calendarDay;
      const minLength = schema.minLength ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 60));
      // Text fields are where storage breaks: often valid around one hostile character.
      return fc.oneof(
        { weight: 2, arbitrary: fc.string({ minLength, maxLength }) },
        {
          weight: 2,
          arbitrary: fc
            .tuple(
              fc.string({ minLength, maxLength }),
              fc.constantFrom(...hostileStrings.filter((text) => text.length < 100)),
            )
            .map(([text, hostile]) => `${text}${hostile}`),
        },
        { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) },
        {
          weight: 1,
          arbitrary: fc
            .tuple(
              fc.string({ minLength, maxLength }),
              fc.constantFrom('\u0000', '\ud800', '\udc00', '\udbff'),
            )
            .map(([text, broken]) => `${text.slice(0, Math.max(0, text.length - 1))}${broken}`),
        },
      );
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min(schema.maximum ?? 1000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(schema.items ? valueFor(schema.items, context, name, depth + 1) : hostileValue, {
        maxLength: 4,
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, valueFor(child, context, key, depth + 1)]),
      );
      if (!Object.keys(shape).length) {
        return fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 3 });
      }
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((key) => key in shape) });
    }
    default:
      return fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.constant(null));
  }
}

/** A valid value with one part broken: a field replaced by a hostile value, dropped, or added. */
export function mutatedValueFor(schema: JsonSchema, context: FuzzContext): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valueFor(schema, context),
      fc.nat(),
      hostileValue,
      fc.constantFrom('replace', 'drop', 'add', 'proto'),
    )
    .map(([value, pick, hostile, how]) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return hostile;
      const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      const keys = Object.keys(copy);
      const key = keys.length ? keys[pick % keys.length]! : 'extra';
      if (how === 'replace') copy[key] = hostile;
      else if (how === 'drop') delete copy[key];
      else if (how === 'add') copy[`unexpected_${pick % 7}`] = hostile;
      else Object.defineProperty(copy, '__proto__', { value: { admin: true }, enumerable: true });
      return copy;
    });
}

const SORT_FIELDS = [
  ...new Set([
    ...DRIVER_SORTS,
    ...CUSTOMER_SORTS,
    ...ACCOUNT_SORTS,
    ...TRIP_SORTS,
    ...AUDIT_SORTS,
    ...COMPLIANCE_SORTS,
  ]),
];

/** A value a sorted list's key could hold, at or past the ends of its type. */
const keyPart: fc.Arbitrary<unknown> = fc.oneof(
  hugeNumber,
  calendarDay,
  cursorTimestamp,
  fc.uuid(),
  fc.constantFrom('aadhaarCard', 'completed', 'Ravi'),
);

/**
 * A sorted list's key: in the shapes the lists use (a time and a serial id, a day, a record and a
 * document, a name and a record), with values at the ends of their types, or any parts at all.
 */
const sortedKey: fc.Arbitrary<unknown[]> = fc.oneof(
  fc.tuple(cursorTimestamp, hugeNumber),
  fc.tuple(calendarDay, fc.uuid(), fc.constantFrom('aadhaarCard', 'rcCertificate')),
  fc.tuple(hugeNumber, fc.uuid()),
  fc.tuple(cursorTimestamp, fc.uuid()),
  fc.array(keyPart, { minLength: 1, maxLength: 4 }),
);

const encodeKey = (key: unknown) => {
  try {
    return Buffer.from(JSON.stringify(key) ?? 'null', 'utf8').toString('base64url');
  } catch {
    return 'e30';
  }
};

/**
 * Replaces one value of a decoded cursor's key by one a database or a date cannot hold. The sort it
 * names (`s`, `o`) stays, so that the cursor is still taken for one of its list's.
 */
function breakOneValue(key: unknown, pick: number, choice: number): unknown {
  const leaves: { holder: Record<string | number, unknown>; at: string | number }[] = [];
  const walk = (value: unknown, top: boolean) => {
    if (value === null || typeof value !== 'object') return;
    for (const [at, child] of Object.entries(value as Record<string, unknown>)) {
      if (top && (at === 's' || at === 'o' || at === 'tc')) continue;
      if (child !== null && typeof child === 'object') walk(child, false);
      else
        leaves.push({ holder: value as Record<string, unknown>, at: Array.isArray(value) ? Number(at) : at });
    }
  };
  walk(key, true);
  const leaf = leaves[pick % Math.max(1, leaves.length)];
  if (!leaf) return key;
  const value = leaf.holder[leaf.at];
  const huge = ['9223372036854775808', '9999999999999999999', '9'.repeat(40)];
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value)) {
    const years = ['0000', '9999'];
    leaf.holder[leaf.at] = `${years[choice % years.length]}${value.slice(4)}`;
  } else if (typeof value === 'string' && /^\d+$/.test(value)) {
    leaf.holder[leaf.at] = huge[choice % huge.length];
  } else if (typeof value === 'number') {
    const numbers = [2 ** 63, 2 ** 64, 1e308, Number.MAX_SAFE_INTEGER + 2, -1];
    leaf.holder[leaf.at] = numbers[choice % numbers.length];
  } else {
    leaf.holder[leaf.at] = choice % 2 ? huge[0] : '9999-12-31T23:59:59.999999Z';
  }
  return key;
}

/**
 * A cursor as the API hands them out (base64url JSON), holding whatever a forger chooses: hostile
 * values, a sorted list's key of values at the ends of their types, or a real cursor of the route's
 * list with one value pushed past what its column holds (a year 0, a bigint past 2^63).
 */
export function forgedCursor(
  context: FuzzContext,
  route: string,
  sorts: string[] = [],
): fc.Arbitrary<string> {
  const forged = fc
    .oneof(
      fc.record({ name: hostileValue, id: hostileValue }),
      fc.record({ createdAt: hostileValue, id: fc.uuid() }),
      fc.record({ at: cursorTimestamp, id: fc.uuid() }),
      fc.record(
        {
          // Mostly a sort of the list itself, so that the key gets past the check of its sort.
          s: sorts.length
            ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...sorts) }, fc.constantFrom(...SORT_FIELDS))
            : fc.constantFrom(...SORT_FIELDS),
          o: fc.constantFrom('asc', 'desc'),
          k: sortedKey,
          t: hugeNumber,
        },
        { requiredKeys: ['s', 'o', 'k'] },
      ),
      hostileValue,
    )
    .map(encodeKey);
  const real = context.cursors[route] ?? [];
  if (!real.length) return forged;
  const broken = fc
    .tuple(fc.constantFrom(...real), fc.nat(), fc.nat())
    .map(([cursor, pick, choice]) =>
      encodeKey(breakOneValue(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')), pick, choice)),
    );
  return fc.oneof(forged, broken);
}

/** The sort a cursor names (`s` and `o`), so that a request can carry it and reach the key's checks. */
export function sortOfCursor(cursor: string): { sort: string; order: string } | null {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { s?: unknown; o?: unknown };
    return typeof key?.s === 'string' && typeof key.o === 'string' ? { sort: key.s, order: key.o } : null;
  } catch {
    return null;
  }
}

/** A path segment: usually from the schema, sometimes broken (bad encoding, huge, traversal). */
export function pathSegment(schema: JsonSchema, context: FuzzContext): fc.Arbitrary<string> {
  const encode = (value: unknown) => {
    try {
      return encodeURIComponent(String(value));
    } catch {
      return '%ED%A0%80'; // a lone surrogate, as UTF-8 bytes
    }
  };
  return fc.oneof(
    { weight: 6, arbitrary: valueFor(schema, context).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...hostileStrings).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom('%zz', '%', '..%2F..', 'a'.repeat(150), '%00', '%ED%A0%80') },
  );
}
