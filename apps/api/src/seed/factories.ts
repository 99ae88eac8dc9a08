import { randomUUID } from 'node:crypto';
import type { CarType, DocumentKey, Role, State, TripStatus } from '@bmet/shared/constants';
import { CAR_TYPES, DOCUMENT_KEYS, STATES } from '@bmet/shared/constants';
import { documentExpires } from '@bmet/shared/document-rules';
import { computeFare, indianHour } from '@bmet/shared/fare';
import type { Db } from '../db/client';
import {
  accounts,
  carRates,
  customerRatings,
  customers,
  driverDocuments,
  driverRatings,
  drivers,
  trips,
} from '../db/schema';
import { hashPassword } from '../modules/auth/password';
import {
  BASE_RATES,
  CANCEL_REASONS,
  CAR_MODELS,
  CITIES,
  FIRST_NAMES,
  LAST_NAMES,
  PLACES,
  RATING_COMMENTS,
} from './india';
import { Random } from './random';

/**
 * Builders (build*) make rows from a seeded generator; creators (create*) insert one row with
 * overrides. The demo seed and the tests use the same ones.
 */

export type AccountRow = typeof accounts.$inferSelect;
export type DriverRow = typeof drivers.$inferInsert;
export type TripRow = typeof trips.$inferInsert;
export type CustomerRow = typeof customers.$inferInsert;
type RateSet = (typeof BASE_RATES)[CarType];

const defaultRandom = new Random(Date.now() & 0xffffffff);
const suffix = () => randomUUID().slice(0, 8);

export const TEST_PASSWORD = 'correct-horse-battery';

export function personName(rng: Random): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

export function indianPhone(rng: Random): string {
  return `+91${rng.pick(['6', '7', '8', '9'])}${rng.digits(9)}`;
}

const emailOf = (name: string, tag: string) =>
  `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${tag}@example.in`;

/** Creates a staff account; the password is hashed as at sign-up. */
export async function createAccount(
  db: Db,
  input: {
    role: Role;
    email?: string;
    password?: string;
    displayName?: string | null;
    state?: State | null;
    dealerId?: string | null;
    createdBy?: string | null;
    disabled?: boolean;
    createdAt?: Date;
  },
): Promise<AccountRow & { password: string }> {
  const password = input.password ?? TEST_PASSWORD;
  const displayName = input.displayName === undefined ? personName(defaultRandom) : input.displayName;
  const [row] = await db
    .insert(accounts)
    .values({
      role: input.role,
      email: (input.email ?? `${input.role}.${suffix()}@test.bookmyetaxi.in`).toLowerCase(),
      displayName,
      state: input.role === 'admin' ? null : (input.state ?? 'maharashtra'),
      dealerId: input.dealerId ?? null,
      createdBy: input.createdBy ?? null,
      disabled: input.disabled ?? false,
      passwordHash: await hashPassword(password),
      ...(input.createdAt ? { createdAt: input.createdAt } : {}),
    })
    .returning();
  return { ...row!, password };
}

/** A point within about `km` kilometres of a centre. */
export function near(rng: Random, lat: number, long: number, km: number) {
  const d = km / 111;
  return { lat: +(lat + rng.float(-d, d)).toFixed(6), long: +(long + rng.float(-d, d)).toFixed(6) };
}

export function buildDriver(
  rng: Random,
  options: { state?: State | null; franchiseId?: string | null; createdAt?: Date } = {},
): DriverRow & { id: string } {
  const state = options.state === undefined ? rng.pick(STATES) : options.state;
  const city = CITIES[state ?? 'maharashtra'];
  const name = personName(rng);
  const carType = rng.weighted<CarType>([
    ['mini', 3],
    ['sedan', 3],
    ['suv', 2],
    ['erickshaw', 1],
    ['auto', 2],
  ]);
  const located = rng.chance(0.88);
  const position = located ? near(rng, city.lat, city.long, 9) : null;
  return {
    id: rng.uuid(),
    name,
    email: rng.chance(0.9) ? emailOf(name, rng.digits(3)) : null,
    phoneNumber: rng.chance(0.95) ? indianPhone(rng) : null,
    country: rng.chance(0.85) ? 'India' : null,
    state,
    franchiseId: options.franchiseId ?? null,
    carModel: rng.pick(CAR_MODELS[carType]),
    vehicleNumber: `${city.code} ${rng.digits(2)} ${String.fromCharCode(65 + rng.int(0, 25), 65 + rng.int(0, 25))} ${rng.digits(4)}`,
    carType,
    lat: position?.lat ?? null,
    long: position?.long ?? null,
    positionAt: position ? new Date(Date.now() - rng.int(5, 3600) * 1000) : null,
    createdAt: options.createdAt ?? new Date(Date.now() - rng.int(1, 400) * 86_400_000),
  };
}

export async function createDriver(
  db: Db,
  overrides: Partial<DriverRow> & { state?: State | null } = {},
  rng: Random = defaultRandom,
) {
  const row = { ...buildDriver(rng, { state: overrides.state }), ...overrides };
  const [driver] = await db.insert(drivers).values(row).returning();
  return driver!;
}

export type DocumentPlan = {
  key: DocumentKey;
  status: 'not_submitted' | 'submitted' | 'approved' | 'rejected';
  /** For an approved document that expires: its expiry (YYYY-MM-DD). */
  expiresOn?: string | null;
};

/** A date `days` from today (UTC days: close enough for demo data). */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * An approved document's expiry as a fleet has them: most valid for months or years, some
 * expiring within the month or the week, a few already expired.
 */
function planExpiry(rng: Random): string {
  const window = rng.weighted([
    ['expired', 4],
    ['week', 4],
    ['month', 8],
    ['later', 84],
  ] as const);
  if (window === 'expired') return daysFromToday(-rng.int(1, 90));
  if (window === 'week') return daysFromToday(rng.int(0, 7));
  if (window === 'month') return daysFromToday(rng.int(8, 30));
  return daysFromToday(rng.int(31, 5 * 365));
}

// Expiries draw from a generator of their own: the demo data's other values (names, trips) stay
// those of the seed they were chosen from.
const expiryRandom = new Random(20_261_124);

// The vehicle's insurance, stored since the spec's ten, draws from a generator of its own too: the
// ten documents' plans stay those they were.
const insuranceRandom = new Random(20_261_129);

/** Which documents a driver has sent, how far each got in review, and when it expires. */
export function planDocuments(rng: Random): DocumentPlan[] {
  const plan = (key: DocumentKey, rng: Random): DocumentPlan => {
    const status = rng.chance(0.2)
      ? 'not_submitted'
      : rng.weighted([
          ['approved', 6],
          ['submitted', 3],
          ['rejected', 1],
        ] as const);
    const expiresOn = status === 'approved' && documentExpires(key) ? planExpiry(expiryRandom) : null;
    return { key, status, expiresOn };
  };
  return [...DOCUMENT_KEYS.map((key) => plan(key, rng)), plan('vehicleInsurance', insuranceRandom)];
}

export function buildDocumentRow(
  driverId: string,
  plan: DocumentPlan,
  reviewerId: string | null,
  objectKey: string | null,
  size: number,
) {
  const uploaded = plan.status !== 'not_submitted';
  const reviewed = plan.status === 'approved' || plan.status === 'rejected';
  return {
    driverId,
    key: plan.key,
    status: plan.status,
    objectKey: uploaded ? objectKey : null,
    contentType: uploaded ? 'image/jpeg' : null,
    size: uploaded ? size : null,
    uploadedAt: uploaded ? new Date(Date.now() - 20 * 86_400_000) : null,
    reviewedBy: reviewed ? reviewerId : null,
    reviewedAt: reviewed ? new Date(Date.now() - 10 * 86_400_000) : null,
    rejectionReason:
      plan.status === 'rejected' ? 'The image is blurred; please upload a clearer photo.' : null,
    expiresOn: plan.expiresOn ?? null,
  };
}

export async function insertDocuments(db: Db, rows: ReturnType<typeof buildDocumentRow>[]) {
  if (rows.length) await db.insert(driverDocuments).values(rows);
}

export function buildRatings(rng: Random, count: number) {
  return Array.from({ length: count }, () => ({
    customerName: personName(rng),
    description: rng.pick(RATING_COMMENTS),
    rating: rng.chance(0.1)
      ? null
      : rng.weighted([
          [5, 5],
          [4, 4],
          [3, 2],
          [2, 1],
          [1, 1],
        ] as const),
    createdAt: new Date(Date.now() - rng.int(1, 200) * 86_400_000),
  }));
}

export type RatingInput = {
  customerName: string | null;
  description: string | null;
  rating: number | null;
  createdAt?: Date;
};

export async function insertDriverRatings(db: Db, driverId: string, rows: RatingInput[]) {
  if (rows.length) await db.insert(driverRatings).values(rows.map((r) => ({ ...r, driverId })));
}

export function buildCustomer(rng: Random): CustomerRow & { id: string; name: string } {
  const name = personName(rng);
  return {
    id: rng.uuid(),
    name,
    email: rng.chance(0.92) ? emailOf(name, rng.digits(4)) : null,
    phoneNumber: indianPhone(rng),
    createdAt: new Date(Date.now() - rng.int(1, 500) * 86_400_000),
  };
}

export async function createCustomer(
  db: Db,
  overrides: Partial<CustomerRow> = {},
  rng: Random = defaultRandom,
) {
  const [customer] = await db
    .insert(customers)
    .values({ ...buildCustomer(rng), ...overrides })
    .returning();
  return customer!;
}

export async function insertCustomerRatings(
  db: Db,
  customerId: string,
  rows: ReturnType<typeof buildRatings>,
) {
  if (rows.length) await db.insert(customerRatings).values(rows.map((r) => ({ ...r, customerId })));
}

/** A rate set of one car type in one state, varied a little around the typical rates. */
export function buildRates(rng: Random, carType: CarType): RateSet {
  const base = BASE_RATES[carType];
  const f = rng.float(0.9, 1.15);
  return {
    ...base,
    per_km: Math.round(base.per_km * f * 2) / 2,
    basePrice: Math.round(base.basePrice * f),
    nightCharge: Math.round(base.nightCharge * f),
  };
}

export async function insertRates(db: Db, state: State, carType: CarType, rates: RateSet) {
  await db.insert(carRates).values({
    state,
    carType,
    perKm: rates.per_km,
    basePrice: rates.basePrice,
    nightCharge: rates.nightCharge,
    waitingCharge: rates.waitingCharge,
    rushHour: rates.rushHour,
    surCharges: rates.surCharges,
    extra: rates.extra,
  });
}

/**
 * When a seeded trip reached each step its status implies: a driver within minutes, the ride at
 * about 2.5 minutes a km. Worked out from the trip's own figures, not drawn, so that the data drawn
 * after a trip stays what it was.
 */
function stepTimes(status: TripStatus, createdAt: Date, km: number, hasDriver: boolean) {
  // A trip booked moments ago has taken no step in the future.
  const now = Date.now();
  const at = (minutes: number) =>
    new Date(
      Math.min(createdAt.getTime() + Math.round(minutes * 60_000), Math.max(now, createdAt.getTime())),
    );
  const toAssign = 1 + (Math.round(km * 7) % 4);
  const toStart = toAssign + 4 + (Math.round(km * 3) % 9);
  const assigned = hasDriver && status !== 'requested';
  return {
    assignedAt: assigned ? at(toAssign) : null,
    startedAt: status === 'started' || status === 'completed' ? at(toStart) : null,
    finishedAt: status === 'completed' ? at(toStart + km * 2.5) : null,
    cancelledAt: status === 'cancelled' ? at(toAssign + 2 + (Math.round(km) % 10)) : null,
  };
}

export function buildTrip(
  rng: Random,
  input: {
    customer: { id: string; name: string; phoneNumber?: string | null };
    driver: { id: string; state: State | null; carType: string | null } | null;
    state: State;
    createdAt: Date;
    status?: TripStatus;
    /** The rates of the trip's state for a car type, which price it (else the typical rates). */
    rates?: (carType: CarType) => RateSet | undefined;
  },
): TripRow {
  const city = CITIES[input.state];
  const status: TripStatus =
    input.status ??
    (input.driver
      ? rng.weighted([
          ['completed', 78],
          ['cancelled', 8],
          ['started', 6],
          ['assigned', 8],
        ] as const)
      : rng.weighted([
          ['requested', 70],
          ['cancelled', 30],
        ] as const));
  const from = near(rng, city.lat, city.long, 10);
  const to = near(rng, city.lat, city.long, 14);
  const km = Math.max(1, Math.hypot(from.lat - to.lat, from.long - to.long) * 111 * 1.3);
  const carType = (input.driver?.carType as CarType | null) ?? rng.pick(CAR_TYPES);
  const price = computeFare(input.rates?.(carType) ?? BASE_RATES[carType], km, indianHour(input.createdAt));
  const pickup = rng.pick(PLACES);
  let destination = rng.pick(PLACES);
  if (destination === pickup) destination = PLACES[(PLACES.indexOf(pickup) + 3) % PLACES.length]!;
  return {
    id: rng.uuid(),
    title: input.customer.name,
    body: `${CAR_MODELS[carType][0]} ride from ${pickup} to ${destination}`,
    phoneNumber: input.customer.phoneNumber ?? null,
    customerId: input.customer.id,
    driverId: status === 'requested' ? null : (input.driver?.id ?? null),
    carType,
    pickupLocation: `${pickup}, ${city.city}`,
    pickupLat: from.lat,
    pickupLong: from.long,
    destinationLocation: `${destination}, ${city.city}`,
    destinationLat: to.lat,
    destinationLong: to.long,
    distanceKm: Math.round(km * 10) / 10,
    price,
    status,
    paid: status === 'completed' ? rng.chance(0.93) : false,
    cancelReason: status === 'cancelled' ? rng.pick(CANCEL_REASONS) : null,
    ...stepTimes(status, input.createdAt, km, Boolean(input.driver)),
    createdAt: input.createdAt,
  };
}

export async function createTrip(
  db: Db,
  input: Partial<Parameters<typeof buildTrip>[1]> & { overrides?: Partial<TripRow> } = {},
  rng: Random = defaultRandom,
) {
  const customer = input.customer ?? (await createCustomer(db, {}, rng));
  const row = buildTrip(rng, {
    customer,
    driver: input.driver ?? null,
    state: input.state ?? 'maharashtra',
    createdAt: input.createdAt ?? new Date(),
    status: input.status,
  });
  const [trip] = await db
    .insert(trips)
    .values({ ...row, ...input.overrides })
    .returning();
  return trip!;
}
