import { sql } from 'drizzle-orm';
import { insertDemoFareRules } from './fare-rules';
import { seedDemoChecks } from './driver-checks';
import { seedDemoVehicles } from './vehicles';
import { seedDemoGrievances } from './grievances';
import { SingleBar, Presets } from 'cli-progress';
import type { State } from '@bmet/shared/constants';
import { CAR_TYPES, STATES, STORED_DOCUMENT_KEYS } from '@bmet/shared/constants';
import { inSchemaLock, type Db } from '../db/client';
import {
  accounts,
  customerRatings,
  customers,
  driverChecks,
  driverDocuments,
  driverRatings,
  drivers,
  trips,
  vehicleAssignments,
  vehicles,
} from '../db/schema';
import type { ObjectStore } from '../infra/object-store';
import { drawDocumentJpeg } from './document-image';
import {
  buildCustomer,
  buildDocumentRow,
  buildDriver,
  buildRatings,
  buildRates,
  buildTrip,
  createAccount,
  insertRates,
  planDocuments,
} from './factories';
import { loadWithIndexesBuiltAfter, prepareRows, storingInTurn } from './bulk-insert';
import { seedDemoWallets } from './wallet';
import { CITIES, FRANCHISE_AREAS } from './india';
import { Random } from './random';

export type SeedScale = {
  drivers: number;
  trips: number;
  customers: number;
  dealers: number;
  franchisesPerDealer: number;
};
export const DEFAULT_SCALE: SeedScale = {
  drivers: 200,
  trips: 5000,
  customers: 500,
  dealers: 6,
  franchisesPerDealer: 3,
};

export const DEMO_ACCOUNTS = {
  admin: 'admin@bookmyetaxi.test',
  dealer: 'dealer@bookmyetaxi.test',
  franchise: 'franchise@bookmyetaxi.test',
} as const;

/** Every demo account's email ends so: `.test` is reserved and can receive no mail (RFC 2606). */
export const DEMO_EMAIL_DOMAIN = '@bookmyetaxi.test';

/**
 * Disables the demo accounts a database holds (all share a published password), for a production
 * server started on a database seeded before; answers their emails.
 */
export async function disableDemoAccounts(db: Db): Promise<string[]> {
  const rows = await db
    .update(accounts)
    .set({ disabled: true })
    .where(sql`${accounts.email} like ${'%' + DEMO_EMAIL_DOMAIN} and ${accounts.disabled} = false`)
    .returning({ email: accounts.email });
  return rows.map((row) => row.email);
}

const DEALER_STATES: State[] = [
  'maharashtra',
  'karnataka',
  'delhi',
  'tamil nadu',
  'west bengal',
  'gujarat',
  'telangana',
  'uttar pradesh',
];
const IMAGE_VARIANTS = 3;
const BATCH = 1000;

export type ProgressMode = 'bar' | 'lines' | false;

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const rows = await db
    .select({ one: sql`1` })
    .from(accounts)
    .limit(1);
  return rows.length === 0;
}

/** Empties every table (for `npm run seed -- --reset`). */
export async function resetDatabase(db: Db): Promise<void> {
  await db.execute(sql`truncate table audit_log, car_rates, trips, customer_ratings, customers,
    driver_ratings, driver_documents, drivers, sign_in_attempts, sessions, accounts restart identity cascade`);
}

/** A bar in a terminal, a line per tenth elsewhere (logs, CI), or nothing. */
function progressBar(mode: ProgressMode, label: string, total: number) {
  if (!mode || total === 0) return { increment: (_n: number) => {}, stop: () => {} };
  if (mode === 'lines') {
    let done = 0;
    let nextReport = total / 10;
    const started = Date.now();
    return {
      increment: (n: number) => {
        done += n;
        if (done >= nextReport || done === total) {
          const seconds = ((Date.now() - started) / 1000).toFixed(0);
          console.log(`${label}: ${done}/${total} (${Math.round((done / total) * 100)}%, ${seconds} s)`);
          nextReport += total / 10;
        }
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar(
    { format: `${label.padEnd(10)} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}` },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { increment: (n: number) => bar.increment(n), stop: () => bar.stop() };
}

/** Writes the document scans the demo drivers point at (a few variants per document type). */
async function storeDocumentTemplates(store: ObjectStore): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const key of STORED_DOCUMENT_KEYS) {
    for (let v = 0; v < IMAGE_VARIANTS; v++) {
      const image = drawDocumentJpeg(key, v);
      const objectKey = `images/demo/${key}-${v}.jpg`;
      await store.put(objectKey, image, 'image/jpeg');
      sizes.set(objectKey, image.length);
    }
  }
  return sizes;
}

/**
 * Loads the demo data into an empty database, in one transaction (a start stopped half-way leaves
 * an empty database, not half the demo) under the schema lock, checked again inside it: of several
 * instances starting together on one database, one loads it. Null when there was nothing to do.
 */
export async function seedDemoIfEmpty(db: Db, options: { password: string; objectStore: ObjectStore }) {
  if (!(await isDatabaseEmpty(db))) return null;
  return inSchemaLock(db, async (tx) =>
    (await isDatabaseEmpty(tx)) ? seedDemo(tx, { ...options, progress: false }) : null,
  );
}

/**
 * Fills an empty database with deterministic Indian demo data: staff accounts of every role,
 * drivers with documents, positions and ratings, customers, trips in every status, and rates for
 * every state and car type.
 */
export async function seedDemo(
  db: Db,
  options: {
    password: string;
    /** Where the documents' images go: the object store the server uses. */
    objectStore: ObjectStore;
    progress: ProgressMode;
    scale?: Partial<SeedScale>;
    seed?: number;
  },
) {
  const scale = { ...DEFAULT_SCALE, ...options.scale };
  const rng = new Random(options.seed ?? 20261120);
  const store = options.objectStore;
  const password = options.password;

  // Staff: two admins, city dealers across states, franchises under each dealer.
  const admin = await createAccount(db, {
    role: 'admin',
    email: DEMO_ACCOUNTS.admin,
    password,
    displayName: 'Asha Rao',
  });
  await createAccount(db, {
    role: 'admin',
    email: 'ops.admin@bookmyetaxi.test',
    password,
    displayName: 'Kiran Desai',
    createdBy: admin.id,
  });
  const franchises: { id: string; state: State }[] = [];
  const dealerCount = Math.max(1, Math.min(scale.dealers, DEALER_STATES.length));
  for (let d = 0; d < dealerCount; d++) {
    const state = DEALER_STATES[d]!;
    const city = CITIES[state];
    const dealer = await createAccount(db, {
      role: 'city_dealer',
      email:
        d === 0
          ? DEMO_ACCOUNTS.dealer
          : `dealer.${city.city.toLowerCase().replace(/\s+/g, '')}@bookmyetaxi.test`,
      password,
      displayName: d === 0 ? 'Vikram Patil' : `${city.city} Mobility Partners`,
      state,
      createdBy: admin.id,
      createdAt: new Date(Date.now() - (dealerCount - d) * 30 * 86_400_000),
    });
    for (let f = 0; f < Math.max(1, scale.franchisesPerDealer); f++) {
      const area = FRANCHISE_AREAS[f % FRANCHISE_AREAS.length]!;
      const demo = d === 0 && f === 0;
      const franchise = await createAccount(db, {
        role: 'franchise',
        email: demo
          ? DEMO_ACCOUNTS.franchise
          : `franchise.${city.city.toLowerCase().replace(/\s+/g, '')}.${area.toLowerCase().replace(/\s+/g, '')}@bookmyetaxi.test`,
        password,
        displayName: `${city.city} ${area} EV Cabs`,
        state,
        dealerId: dealer.id,
        createdBy: dealer.id,
        createdAt: new Date(Date.now() - (dealerCount - d) * 30 * 86_400_000 + (f + 1) * 86_400_000),
      });
      franchises.push({ id: franchise.id, state });
    }
  }

  // Rates for every state and car type; the trips are priced by them, as the app prices a ride.
  const rates = new Map<string, ReturnType<typeof buildRates>>();
  for (const state of STATES)
    for (const carType of CAR_TYPES) {
      const set = buildRates(rng, carType);
      rates.set(`${state}/${carType}`, set);
      await insertRates(db, state, carType, set);
    }
  // And the fares some states notified, the band the rates must keep (one state's sedans do not).
  await insertDemoFareRules(db);

  // The bulk of the data, loaded with the tables' secondary indexes built once at the end. The
  // vehicles are made from the drivers once the load ends (vehicles_rebuild): their indexes too.
  await loadWithIndexesBuiltAfter(
    db,
    [
      drivers,
      driverDocuments,
      driverChecks,
      driverRatings,
      customers,
      customerRatings,
      trips,
      vehicles,
      vehicleAssignments,
    ],
    async (db) => {
      // Drivers: a fifth of them with the demo franchise, a few not yet assigned to any.
      const templates = await storeDocumentTemplates(store);
      const driverRows: ReturnType<typeof buildDriver>[] = [];
      const driverBar = progressBar(options.progress, 'drivers', scale.drivers);
      // The next batch is built while the database stores the last one.
      const storingDrivers = storingInTurn(db);
      for (let i = 0; i < scale.drivers; i += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, scale.drivers - i) }, (_, j) => {
          const n = i + j;
          const franchise = n % 5 === 0 ? franchises[0]! : rng.chance(0.08) ? null : rng.pick(franchises);
          return buildDriver(rng, {
            state: franchise?.state ?? rng.pick(STATES),
            franchiseId: franchise?.id ?? null,
          });
        });
        const documents = batch.flatMap((driver) =>
          planDocuments(rng).map((plan) => {
            // The insurance, planned since, draws nothing from rng: the rest of the demo stays as it was.
            const variant = plan.key === 'vehicleInsurance' ? 0 : rng.int(0, IMAGE_VARIANTS - 1);
            const objectKey = `images/demo/${plan.key}-${variant}.jpg`;
            return buildDocumentRow(driver.id, plan, admin.id, objectKey, templates.get(objectKey) ?? 0);
          }),
        );
        // Built in the same order as one driver at a time, so the demo data stays the same.
        const ratings = batch.flatMap((driver) =>
          buildRatings(rng, rng.int(0, 8)).map((rating) => ({ ...rating, driverId: driver.id })),
        );
        driverRows.push(...batch);
        await storingDrivers.store(
          [
            prepareRows(drivers, batch),
            prepareRows(driverDocuments, documents),
            prepareRows(driverRatings, ratings),
          ],
          () => driverBar.increment(batch.length),
        );
      }
      await storingDrivers.stored();
      driverBar.stop();
      await seedDemoWallets(
        db,
        driverRows.map((driver) => driver.id),
      );
      await seedDemoChecks(
        db,
        driverRows.map((driver) => driver.id),
      );

      // Customers with the ratings drivers gave them. The trips keep only what they read of each
      // (a million whole rows held to the end made the garbage collector's work grow with them).
      const customerRows: { id: string; name: string; phoneNumber: string | null }[] = [];
      const customerBar = progressBar(options.progress, 'customers', scale.customers);
      const storingCustomers = storingInTurn(db);
      for (let i = 0; i < scale.customers; i += BATCH) {
        const batch = Array.from({ length: Math.min(BATCH, scale.customers - i) }, () => buildCustomer(rng));
        const ratings = batch.flatMap((customer) =>
          buildRatings(rng, rng.int(0, 3)).map((rating) => ({ ...rating, customerId: customer.id })),
        );
        for (const { id, name, phoneNumber } of batch)
          customerRows.push({ id, name, phoneNumber: phoneNumber ?? null });
        await storingCustomers.store(
          [prepareRows(customers, batch), prepareRows(customerRatings, ratings)],
          () => customerBar.increment(batch.length),
        );
      }
      await storingCustomers.stored();
      customerBar.stop();

      // Trips over the last six months, more of them recent, in every status. They are stored
      // oldest first, as the apps and the import store them: each trip's age is drawn within its
      // own slice of the distribution, so the table's order on disk is the order of time, as a
      // real one's is (a newest-first list reads a few pages, not a page per trip).
      const assigned = driverRows.filter((d) => d.franchiseId);
      const tripBar = progressBar(options.progress, 'trips', scale.trips);
      const now = Date.now();
      const TRIP_BATCH = 10_000;
      // The next batch is built while the database stores the last one.
      const storingTrips = storingInTurn(db);
      for (let i = 0; i < scale.trips; i += TRIP_BATCH) {
        const batch = Array.from({ length: Math.min(TRIP_BATCH, scale.trips - i) }, (_, j) => {
          const driver = rng.chance(0.9) && assigned.length ? rng.pick(assigned) : null;
          const share = 1 - (i + j + rng.next()) / scale.trips;
          const ageMs = Math.floor(share ** 2 * 180 * 86_400_000);
          const state = (driver?.state as State | null) ?? rng.pick(DEALER_STATES);
          return buildTrip(rng, {
            customer: rng.pick(customerRows),
            driver: driver ? { id: driver.id, state, carType: driver.carType ?? null } : null,
            state,
            createdAt: new Date(now - ageMs),
            rates: (carType) => rates.get(`${state}/${carType}`),
          });
        });
        await storingTrips.store([prepareRows(trips, batch)], () => tripBar.increment(batch.length));
      }
      await storingTrips.stored();
      tripBar.stop();
    },
    // The drivers' vehicles are made from their car details once the load is in; what staff add
    // to them is written before their indexes are built.
    // Ten million trips' indexes sort on disk in PostgreSQL's default 64 MB.
    { foreignKeys: true, indexMemory: '512MB', afterFigures: seedDemoVehicles },
  );
  // Grievances in every state, some due and some overdue, so that the desk is at work.
  await seedDemoGrievances(db);

  return {
    accounts: 2 + dealerCount * (1 + Math.max(1, scale.franchisesPerDealer)),
    drivers: scale.drivers,
    customers: scale.customers,
    trips: scale.trips,
  };
}
