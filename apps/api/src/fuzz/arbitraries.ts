import fc from 'fast-check';

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

/** Ids of real records (in and out of the callers' scopes), so that valid requests reach rows. */
export type FuzzContext = { ids: string[]; emails: string[] };

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
  '0000-01-01T00:00:00.000000Z',
  '00000000-0000-0000-0000-000000000000',
];

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
      if (schema.format === 'date-time')
        return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
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

/** A cursor as the API hands them out (base64url JSON), holding whatever a forger chooses. */
export const forgedCursor: fc.Arbitrary<string> = fc
  .oneof(
    fc.record({ name: hostileValue, id: hostileValue }),
    fc.record({ createdAt: hostileValue, id: fc.uuid() }),
    fc.record({
      at: fc.constantFrom('2026-02-30T00:00:00.000000Z', '0000-01-01T00:00:00.000000Z'),
      id: fc.uuid(),
    }),
    hostileValue,
  )
  .map((key) => {
    try {
      return Buffer.from(JSON.stringify(key) ?? 'null', 'utf8').toString('base64url');
    } catch {
      return 'e30';
    }
  });

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
