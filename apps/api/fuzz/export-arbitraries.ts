import fc from 'fast-check';
import { hostileStrings } from './arbitraries';

/**
 * Firebase exports for the import's fuzz property: small Realtime Database exports (and sometimes an
 * Authentication export) shaped as the apps wrote them, with hostile values in any field, hostile
 * keys, wrong types, deep nesting, bytes that are not UTF-8 and files cut or joined.
 */

/** Text that JSON.stringify cannot write: put in the file as bytes, in place of a marker. */
class RawBytes {
  constructor(readonly bytes: Buffer) {}
}

const raw = (text: string | Buffer) => new RawBytes(Buffer.isBuffer(text) ? text : Buffer.from(text));

/** Objects nested `depth` levels, as text (JSON.stringify itself runs out of stack on thousands). */
const nested = (depth: number) => raw(`${'{"a":'.repeat(depth)}"bottom\\u0000"${'}'.repeat(depth)}`);

/** The keys the storage copy has folders for (see createImportFuzzWorld), and keys that reach out. */
export const STORAGE_KEYS = ['drvA', 'drvB', 'drvLink'];
const HOSTILE_KEYS = [
  '../outside',
  '../../outside',
  '..',
  '.',
  '',
  ' ',
  'drvA/../drvA',
  'drvA\\..\\outside',
  '%2e%2e',
  '__proto__',
  'constructor',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\u202edrvA',
  'drvA\u200b',
  '\u001b[2J\u001b[Hforged line',
  'line\nbreak',
  'k'.repeat(600),
];

/** A push id, as the apps' keys are: its first eight characters its time, sometimes far off. */
const pushId: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('-NQx', '-NQa', '----', 'zzzz', '-MZ1'), fc.stringMatching(/^[-0-9A-Za-z_]{16}$/))
  .map(([start, rest]) => `${start}${rest}`);

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...STORAGE_KEYS, 'cust1', 'cust2', 'dealer1', 'fran1') },
  { weight: 3, arbitrary: pushId },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

/** Numbers past what a column, a JavaScript number or a date holds; NaN and Infinity as text. */
const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    1e308,
    -1e308,
    Number.MAX_VALUE,
    5e-324,
    -0,
    2 ** 53 + 1,
    -(2 ** 63),
    2 ** 64,
    9e15,
    8.64e15 + 1,
    -1,
    0,
    1e21,
    32768,
    -2147483649,
  ),
  fc.constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '9'.repeat(400), `-${'9'.repeat(40)}`),
  fc.constantFrom('Rs 9999999999999999999999', '₹ 1,00,00,000.50', '1e5', '0x1F', ' 12 ', '12 km'),
  // As bare JSON: NaN is none (the record is damaged), 1e400 parses as Infinity.
  fc.constantFrom(raw('NaN'), raw('1e400'), raw('-1e400'), raw(`1${'0'.repeat(400)}`), raw('-0.0')),
  fc.integer(),
  fc.double(),
);

/** Times past year 10000, before 1970, impossible days, and numbers of milliseconds past any date. */
const hostileTime: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '9999-12-31 23:59:59.999999',
    '10000-01-01 00:00:00.000',
    '+010000-01-01T00:00:00Z',
    '+275760-09-13T00:00:00.001Z',
    '-000001-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59-12:00',
    '2023-02-30 10:00:00',
    '2023-03-14 24:00:00',
    '2023-03-14T18:22:05+99:99',
    '1969-12-31T23:59:59Z',
  ),
  fc.constantFrom(9e15, 8.64e15, -1, 0, 1e308, 253402300800000, '99999999999999'),
);

/** Emails that are none, or look like one they are not. */
const hostileEmail: fc.Arbitrary<unknown> = fc.constantFrom(
  'not an email',
  'good.admin@firebase.test\u200b',
  'Good.Admin@Firebase.Test',
  ' good.admin@firebase.test ',
  'a\u0000b@firebase.test',
  'x@\ud800.test',
  '@firebase.test',
  'a@b',
  `${'a'.repeat(300)}@firebase.test`,
  'a@b.c\u202e',
  'admin@firebase.test\nBcc: x@y.z',
);

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileStrings.filter((text) => text.length < 1000)) },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: hostileTime },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [1, 2], { a: { b: 1 } }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      // Bytes that are not UTF-8 inside a string: a stray byte, an overlong '/', a surrogate's bytes.
      raw(Buffer.from([0x22, 0x61, 0xff, 0xfe, 0x62, 0x22])),
      raw(Buffer.from([0x22, 0xc0, 0xaf, 0x22])),
      raw(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22])),
      nested(20),
      nested(40),
      nested(3000),
    ),
  },
);

/** Values at and past the ends of what a field holds: amounts, coordinates, ratings, flags. */
const HUGE_DIGITS = '9'.repeat(400);
const edges = {
  amount: fc.constantFrom<unknown>(
    HUGE_DIGITS,
    `Rs ${HUGE_DIGITS}`,
    `-${'9'.repeat(309)}`,
    `0.${'0'.repeat(400)}1`,
    '1,00,00,00,00,00,00,00,00,000',
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 1,
    raw('1e400'),
    raw(`1${'0'.repeat(400)}`),
  ),
  coordinate: fc.constantFrom<unknown>(1e308, -1e308, 5e-324, '1e400', 'NaN', raw('-1e400'), HUGE_DIGITS),
  rating: fc.constantFrom<unknown>(1e308, -0, 4.9999999999, '5 ', 32768, -32769, 'NaN', raw('1e400')),
  flag: fc.constantFrom<unknown>('true', 'false', 1, 0, 'yes', null),
  time: hostileTime,
  key: fc.constantFrom<unknown>(...HOSTILE_KEYS),
  text: fc.constantFrom<unknown>(...hostileStrings.filter((text) => text.length < 1000)),
};

/** A field: mostly what the apps wrote, often a value at the ends of its kind, sometimes anything. */
const field = (plausible: fc.Arbitrary<unknown>, edge: fc.Arbitrary<unknown> = edges.text) =>
  fc.oneof(
    { weight: 3, arbitrary: plausible },
    { weight: 2, arbitrary: edge },
    { weight: 1, arbitrary: hostileScalar },
  );

/** A part of a record (an object): mostly there, sometimes anything else. */
const part = (plausible: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: hostileScalar });

/** A child map of records under push ids (or any keys), as an object or, sometimes, a list. */
const children = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.oneof(pushId, key), record, { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.array(record, { maxLength: 3 }) },
    { weight: 1, arbitrary: hostileScalar },
  );

const name = fc.constantFrom('Ravi Kumar', 'Asha Rao', 'अनिल', '');
const phone = fc.constantFrom('9876543210', '09123456789', '+919812345678', '919000000001', '12');
const dartTime = fc.constantFrom('2023-03-14 18:22:05.123456', '2024-01-01 00:00:00.000', '1678790000000');
const money = fc.constantFrom(250, '250', 'Rs 250', 'Rs. 1,250.50', '₹250', 0, -40);
const place = fc.constantFrom('MG Road', 'Airport', 'Indiranagar');
const coordinate = fc.constantFrom(12.97, '77.59', 0, -90, 180);
const carType = fc.constantFrom('sedan', 'auto', 'SUV', 'hovercraft', 'mini');
const state = fc.constantFrom('karnataka', 'Kerala', 'ladakh', 'goa');
const documentKey = fc.constantFrom('aadharCard', 'panCard', 'driverLicence', 'passbookPhoto', '../x');

const rating = fc.record({
  rating: field(fc.constantFrom(1, 5, '4', 0, 6, 4.5), edges.rating),
  customerName: field(name),
  description: field(fc.constantFrom('Polite', '')),
  date: field(dartTime, edges.time),
});

const driver = fc.record({
  name: field(name),
  email: field(fc.constantFrom('', 'ravi@example.in')),
  phoneNumber: field(phone),
  country: field(fc.constantFrom('India')),
  amount: field(money, edges.amount),
  position: part(
    fc.record({ lat: field(coordinate, edges.coordinate), long: field(coordinate, edges.coordinate) }),
  ),
  car_details: part(
    fc.record({
      car_type: field(carType),
      card_brand: field(fc.constantFrom('Tata')),
      car_model: field(fc.constantFrom('Nexon EV')),
      car_year: field(fc.constantFrom('2022', 2022)),
      vehicle_number: field(fc.constantFrom('KA01AB1234')),
    }),
  ),
  documents: part(fc.dictionary(documentKey, fc.oneof(fc.boolean(), hostileScalar), { maxKeys: 3 })),
  history: children(
    fc.record({
      pickUpLocation: field(place),
      destinationLocation: field(place),
      customerName: field(name),
      price: field(money, edges.amount),
      distance: field(money, edges.amount),
      dateTime: field(dartTime, edges.time),
    }),
  ),
  transaction: children(
    fc.record({
      amount: field(money, edges.amount),
      status: field(fc.constantFrom('Recharge', 'Ride Accepted', 'Money Sent', '')),
      is_added: field(fc.boolean(), edges.flag),
      current_balance: field(money, edges.amount),
      order_id: field(fc.constantFrom('ORD1')),
      date: field(dartTime, edges.time),
    }),
  ),
  rating: children(rating),
});

const customer = fc.record({
  name: field(name),
  email: field(fc.constantFrom('asha@example.in')),
  phoneNumber: field(phone),
  rating: children(rating),
});

const trip = fc.record({
  title: field(name),
  body: field(fc.constantFrom('Please Pickup me')),
  phoneNumber: field(phone),
  id: field(key, edges.key),
  car: field(carType),
  date: field(dartTime, edges.time),
  price: field(money, edges.amount),
  distance: field(money, edges.amount),
  paid: field(fc.boolean(), edges.flag),
  tripStarted: field(fc.boolean(), edges.flag),
  isFinished: field(fc.boolean(), edges.flag),
  completed: field(fc.boolean(), edges.flag),
  cancel_trip: part(
    fc.oneof(fc.constant(true), fc.record({ reason: field(fc.constantFrom('Driver is late')) })),
  ),
  'pick-up': part(
    fc.record({
      location: field(place),
      lat: field(coordinate, edges.coordinate),
      long: field(coordinate, edges.coordinate),
    }),
  ),
  destination: part(
    fc.record({
      location: field(place),
      lat: field(coordinate, edges.coordinate),
      long: field(coordinate, edges.coordinate),
    }),
  ),
  driver_info: part(fc.record({ id: field(key, edges.key) })),
  messages: children(
    fc.record({
      sender: field(fc.constantFrom('customer', 'driver')),
      message: field(fc.constantFrom('I am at gate 2')),
    }),
  ),
});

const staffNode = fc.record({
  name: field(name),
  email: fc.oneof(
    fc.constantFrom('dealer1@firebase.test', 'fran1@firebase.test'),
    hostileEmail,
    hostileScalar,
  ),
  state: field(state),
  city_dealer: field(key, edges.key),
  createdAt: field(dartTime, edges.time),
});

const rateSet = fc.oneof(
  fc.record({
    per_km: field(money, edges.amount),
    basePrice: field(money, edges.amount),
    nightCharge: field(money, edges.amount),
    waitingCharge: field(money, edges.amount),
    rushHour: field(money, edges.amount),
    surCharges: field(money, edges.amount),
    extra: field(money, edges.amount),
  }),
  hostileNumber,
  hostileScalar,
);
const rates = fc.dictionary(fc.oneof(carType, fc.string({ maxLength: 6 })), rateSet, { maxKeys: 3 });

/** A section: records under keys; sometimes not a map at all. */
const section = (record: fc.Arbitrary<unknown>) =>
  fc.oneof(
    {
      weight: 8,
      arbitrary: fc.dictionary(key, fc.oneof({ weight: 5, arbitrary: record }, hostileScalar), {
        maxKeys: 5,
      }),
    },
    { weight: 1, arbitrary: fc.array(record, { maxLength: 3 }) },
    { weight: 1, arbitrary: hostileScalar },
  );

const databaseExport = fc.record({
  city_dealer: section(staffNode),
  franchise: section(staffNode),
  customer: section(customer),
  driver: section(driver),
  state: fc.dictionary(fc.oneof(state, key), fc.oneof({ weight: 4, arbitrary: rates }, hostileScalar), {
    maxKeys: 3,
  }),
  trips: section(trip),
  active_driver: hostileScalar,
});

const authUser = fc.record({
  localId: fc.oneof(key, hostileScalar),
  email: fc.oneof(
    fc.constantFrom('dealer1@firebase.test', 'admin1@firebase.test'),
    hostileEmail,
    hostileScalar,
  ),
  displayName: field(name),
  customAttributes: fc.oneof(
    fc.constantFrom(
      '{"admin":true}',
      '{"city_dealer":true}',
      '{"franchise":true}',
      '{"admin":',
      '[]',
      'null',
    ),
    fc.constant({ admin: true }),
    hostileScalar,
  ),
  disabled: field(fc.boolean(), edges.flag),
  createdAt: field(dartTime, edges.time),
  passwordHash: field(fc.constantFrom('bm90IGEgaGFzaA==')),
  salt: field(fc.constantFrom('c2FsdA==')),
});

/** Writes a value as JSON, with the raw bytes in their places. */
function serialize(value: unknown): Buffer {
  const pieces: Buffer[] = [];
  const marker = `raw-${Math.random().toString(36).slice(2)}-`;
  const text = JSON.stringify(value, (_, item: unknown) => {
    if (item instanceof RawBytes) {
      pieces.push(item.bytes);
      return `${marker}${pieces.length - 1}`;
    }
    return item;
  });
  const parts = text.split(new RegExp(`"${marker}(\\d+)"`));
  return Buffer.concat(parts.map((part, index) => (index % 2 ? pieces[Number(part)]! : Buffer.from(part))));
}

/** How the file as a whole is damaged: not at all (mostly), or in ways that must refuse it whole. */
const damage = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Damage>({ how: 'none' }) },
  // Valid JSON all the same: a section written twice, its keys again in reverse order.
  { weight: 2, arbitrary: fc.constant<Damage>({ how: 'repeated' }) },
  { weight: 1, arbitrary: fc.constantFrom<Damage>({ how: 'bom' }, { how: 'twice' }, { how: 'trailing' }) },
  { weight: 1, arbitrary: fc.nat().map<Damage>((at) => ({ how: 'cut', at })) },
  { weight: 1, arbitrary: fc.constantFrom<Damage>({ how: 'array' }, { how: 'empty' }) },
);
type Damage =
  | { how: 'none' | 'repeated' | 'bom' | 'twice' | 'trailing' | 'array' | 'empty' }
  | { how: 'cut'; at: number };

/** The export's bytes, damaged as asked. */
function damaged(value: Record<string, unknown>, how: Damage): Buffer {
  const bytes = serialize(value);
  switch (how.how) {
    case 'none':
      return bytes;
    case 'repeated': {
      const [name, section] =
        Object.entries(value).find(([, item]) => item && typeof item === 'object') ?? [];
      if (!name || bytes.length < 3) return bytes;
      const reversed = Array.isArray(section)
        ? section
        : Object.fromEntries(Object.entries(section!).reverse());
      const again = Buffer.concat([Buffer.from(`,${JSON.stringify(name)}:`), serialize(reversed)]);
      return Buffer.concat([bytes.subarray(0, -1), again, Buffer.from('}')]);
    }
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    case 'twice':
      return Buffer.concat([bytes, bytes]);
    case 'trailing':
      return Buffer.concat([bytes, Buffer.from('\n{"trips":{}}garbage')]);
    case 'cut':
      return bytes.subarray(0, how.at % Math.max(1, bytes.length));
    case 'array':
      return Buffer.concat([Buffer.from('['), bytes, Buffer.from(']')]);
    case 'empty':
      return Buffer.alloc(0);
  }
}

export type HostileExport = {
  /** The Realtime Database export's bytes. */
  database: Buffer;
  /** The Authentication export's bytes, when there is one. */
  auth: Buffer | null;
  /** What the export is, for a failure's message. */
  summary: string;
  dryRun: boolean;
  batchSize: number;
  /** Whether the imported rows are cleared first, so that the import loads empty tables in bulk. */
  fresh: boolean;
};

/** A small hostile Firebase export and how to run its import. */
export const hostileExport: fc.Arbitrary<HostileExport> = fc
  .record({
    database: databaseExport,
    damage,
    users: fc.option(fc.array(authUser, { maxLength: 4 }), { nil: null }),
    authDamage: fc.oneof({ weight: 8, arbitrary: fc.constant<Damage>({ how: 'none' }) }, damage),
    dryRun: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, fc.constant(true)),
    batchSize: fc.integer({ min: 1, max: 4 }),
    fresh: fc.boolean(),
  })
  .map(({ database, damage: how, users, authDamage, dryRun, batchSize, fresh }) => {
    const bytes = damaged(database, how);
    const auth = users === null ? null : damaged({ users }, authDamage);
    const shown = (buffer: Buffer) => buffer.toString('utf8').slice(0, 1500);
    const summary = [
      `database (${how.how}, ${bytes.length} bytes): ${shown(bytes)}`,
      auth ? `auth (${authDamage.how}): ${shown(auth)}` : 'no auth',
      `dryRun ${dryRun}, batchSize ${batchSize}, fresh ${fresh}`,
    ].join('\n');
    return { database: bytes, auth, summary, dryRun, batchSize, fresh };
  });
