/**
 * The data every benchmark measures against: the demo seed at the scale of a large operator (a
 * million trips, 100,000 drivers and customers), seeded once and reused, plus a city dealer that
 * has just started; and ID tokens for the demo accounts.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { request, type Agent } from 'node:http';
import { buildApp, type AppOptions } from '../src/app';
import { openDatabase, vacuumWhereNeeded, type Db } from '../src/db/client';
import { createInProcessLocationBus } from '../src/infra/location-bus';
import { hashDeviceToken } from '../src/modules/driver-locations/device-tokens';
import { rowsOf } from '../src/db/rows';

export { rowsOf };
import { accounts, drivers, trips } from '../src/db/schema';
import { DEMO_ACCOUNTS, DEMO_EMAIL_DOMAIN, isDatabaseEmpty, seedDemo } from '../src/seed/demo';
import { createAccount, createDriver, createTrip } from '../src/seed/factories';
import { Random } from '../src/seed/random';
import { openSession } from '../src/modules/auth/start-session';
import { createLocalObjectStore } from '../src/infra/object-store';

export const SCALE = {
  trips: Number(process.env.BENCH_TRIPS ?? 1_000_000),
  drivers: Number(process.env.BENCH_DRIVERS ?? 100_000),
  customers: Number(process.env.BENCH_CUSTOMERS ?? 100_000),
};
export const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10);
export const DATA_DIR = process.env.BENCH_DATA_DIR ?? join(tmpdir(), 'bmet-bench');
export const JWT_SECRET = 'bench-only-jwt-secret-0123456789abcdefghijkl';
export const PAGE = 50;
const OLD_NEW_DEALER = 'bench.new.dealer@bookmyetaxi.test';

/** An account the benchmarks act as, in a domain a production server leaves enabled. */
export const benchEmail = (email: string) => email.replace(DEMO_EMAIL_DOMAIN, '@bench.bookmyetaxi.test');
export const NEW_DEALER = benchEmail(OLD_NEW_DEALER);

// Titles are customer names: 50 first names x 40 surnames.
export const RARE = 'bhavna dsouza'; // one name of 2000: about 0.05% of the trips
export const COMMON = 'sharma'; // one surname of 40: about 2.5%
export const ABSENT = 'zqxj'; // no title has it: an index walk would read every trip to find nothing

export type Staff = { id: string; role: Role; email: string; displayName: string | null };

export const secondsSince = (start: number) => ((performance.now() - start) / 1000).toFixed(1);

/** Seeds an empty database (or reuses a seeded one) and finds the accounts the benchmarks act as. */
export async function prepare(db: Db, kind: string, scale: typeof SCALE = SCALE) {
  if (await isDatabaseEmpty(db)) {
    console.log(`Seeding ${JSON.stringify(scale)} with the demo seed...`);
    const started = performance.now();
    await seedDemo(db, {
      password: 'bench-password-not-secret',
      objectStore: createLocalObjectStore(
        join(kind === 'pglite' ? DATA_DIR : join(tmpdir(), 'bmet-bench-objects'), 'objects'),
      ),
      progress: 'lines',
      scale,
    });
    console.log(`Seeded in ${secondsSince(started)} s.`);
  }
  // Earlier benchmarks (bench:live rewrites drivers' rows) leave dead rows that a PostgreSQL run
  // without autovacuum (as on test machines) never removes, and later figures would depend on it.
  await vacuumWhereNeeded(db);
  // A database seeded elsewhere may not have been analyzed yet; ANALYZE samples, so it is quick.
  await db.execute(sql`analyze`);
  const [tripCount] = await db.select({ n: count() }).from(trips);
  const [driverCount] = await db.select({ n: count() }).from(drivers);
  console.log(`Database holds ${tripCount?.n} trips and ${driverCount?.n} drivers.`);

  const findByEmail = async (email: string): Promise<Staff | null> => {
    const [row] = await db
      .select({
        id: accounts.id,
        role: accounts.role,
        email: accounts.email,
        displayName: accounts.displayName,
      })
      .from(accounts)
      .where(eq(accounts.email, email));
    return (row as Staff | undefined) ?? null;
  };
  const byEmail = async (email: string): Promise<Staff> => {
    const row = await findByEmail(email);
    if (!row) throw new Error(`The database has data but no ${email}: it was not seeded by the demo seed.`);
    return row;
  };
  // The servers the benchmarks start run as production, which disables every demo account (their
  // password is published): the accounts the benchmarks act as move to a domain of their own.
  for (const email of [DEMO_ACCOUNTS.admin, DEMO_ACCOUNTS.dealer, DEMO_ACCOUNTS.franchise, OLD_NEW_DEALER]) {
    await db.execute(sql`update accounts set email = ${benchEmail(email)}, disabled = false
      where email in (${email}, ${benchEmail(email)})`);
  }
  const admin = await byEmail(benchEmail(DEMO_ACCOUNTS.admin));
  const dealer = await byEmail(benchEmail(DEMO_ACCOUNTS.dealer));
  const franchise = await byEmail(benchEmail(DEMO_ACCOUNTS.franchise));
  // A dealer that has just started: three drivers with 21 trips, months old, among a million.
  // The demo seed makes no dealer that small; it is added once.
  let newDealer = await findByEmail(NEW_DEALER);
  if (!newDealer) {
    const rng = new Random(7);
    const created = await createAccount(db, { role: 'city_dealer', email: NEW_DEALER, state: 'goa' });
    const franchise = await createAccount(db, { role: 'franchise', dealerId: created.id, state: 'goa' });
    for (let d = 0; d < 3; d++) {
      const driver = await createDriver(db, { franchiseId: franchise.id, state: 'goa' }, rng);
      for (let k = 0; k < 7; k++) {
        await createTrip(
          db,
          {
            driver: { id: driver.id, state: 'goa', carType: driver.carType },
            state: 'goa',
            status: 'completed',
            createdAt: new Date(Date.now() - (100 + d * 7 + k) * 86_400_000),
          },
          rng,
        );
      }
    }
    newDealer = await byEmail(NEW_DEALER);
  }
  const dealerDrivers = await db.execute(sql`
    select dr.id from drivers dr join accounts f on f.id = dr.franchise_id
    where f.dealer_id = ${dealer.id} order by dr.name, dr.id limit ${PAGE}`);
  const dealerDriverIds = rowsOf(dealerDrivers).map((row) => String(row.id));
  return { admin, dealer, franchise, newDealer, dealerDriverIds };
}

/** An ID token of a new session of the account, as a bearer header. */
export async function headersOf(db: Db, account: Staff, hours = 3): Promise<{ authorization: string }> {
  const expiresAt = new Date(Date.now() + hours * 3_600_000);
  const { idToken } = await openSession(db, account, { jwtSecret: JWT_SECRET, expiresAt });
  return { authorization: `Bearer ${idToken}` };
}

/** The benchmark's database: PostgreSQL at `url` (BENCH_DATABASE_URL), else the embedded one in DATA_DIR. */
/** The benchmark's database: PostgreSQL at `url` (BENCH_DATABASE_URL by default), or with null the embedded one. */
export function openBenchDatabase(url: string | null | undefined = process.env.BENCH_DATABASE_URL) {
  return openDatabase(url ? { databaseUrl: url, dataDir: 'memory://' } : { dataDir: DATA_DIR });
}

/**
 * The API in this process on the benchmark's database, ready for `inject`: no web files, no map
 * tiles, and the limits of `config` (a benchmark's thousands of requests from one address).
 */
export async function buildBenchApp(db: Db, config: Partial<AppOptions['config']> = {}) {
  const app = await buildApp({
    config: {
      jwtSecret: JWT_SECRET,
      tokenTtlHours: 3,
      webDist: join(tmpdir(), `bmet-bench-no-web-${randomUUID()}`),
      trustProxy: false,
      mapTileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      mapAttribution: 'bench',
      ...config,
    },
    db,
    objectStore: createLocalObjectStore(join(tmpdir(), `bmet-bench-objects-${randomUUID()}`)),
    locationBus: createInProcessLocationBus(),
  });
  await app.ready();
  return app;
}

/**
 * Sends one position as a driver's phone does (`POST /api/driver-app/location` with its device
 * token), on a kept-alive agent; `answered` gets the status once the answer is read.
 */
export function sendPosition(
  target: { port: number | string; agent: Agent },
  token: string,
  body: string,
  answered: (status: number | undefined) => void,
  failed: () => void,
): void {
  const req = request(
    {
      host: '127.0.0.1',
      port: target.port,
      method: 'POST',
      path: '/api/driver-app/location',
      agent: target.agent,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      },
    },
    (response) => {
      response.resume();
      response.on('end', () => answered(response.statusCode));
    },
  );
  req.on('error', failed);
  req.end(body);
}

/** Gives each benchmark phone a device token, stored as the console stores one (hashed), 2,000 a statement. */
export async function insertDeviceTokens(
  db: Db,
  phones: readonly { driverId: string; token: string }[],
  label: string,
): Promise<void> {
  for (let i = 0; i < phones.length; i += 2_000) {
    const rows = phones.slice(i, i + 2_000).map((phone) => ({
      id: randomUUID(),
      driver_id: phone.driverId,
      token_hash: hashDeviceToken(phone.token),
      label,
    }));
    await db.execute(sql`
      insert into driver_device_tokens (id, driver_id, token_hash, label)
      select id, driver_id, token_hash, label
      from json_populate_recordset(null::driver_device_tokens, ${JSON.stringify(rows)}::json)`);
  }
}

/** Empties a PostgreSQL database of everything the console made, for a run that starts anew. */
export async function emptyDatabase(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client.unsafe(
      'drop schema if exists public cascade; drop schema if exists drizzle cascade; create schema public',
    );
  } finally {
    await client.end();
  }
}
