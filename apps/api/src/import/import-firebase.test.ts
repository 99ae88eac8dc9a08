import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignInResponse } from '@bmet/shared/schemas/auth';
import type { WalletResponse } from '@bmet/shared/schemas/wallet';
import { buildApp, type App } from '../app';
import { openDatabase, type Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { DriverListResponse } from '@bmet/shared/schemas/driver';
import { accounts, carRates, customers, driverDocuments, drivers, trips, vehicles } from '../db/schema';
import type { ObjectStore } from '../infra/object-store';
import {
  authHeader,
  issueToken,
  postSignIn,
  testAppOptions,
  TEST_JWT_SECRET,
  uniqueAddress,
} from '../../test/test-app';
import { getTestDatabase } from '../../test/test-database';
import { createAccount } from '../seed/factories';
import { importFirebase, type ImportOptions } from './import-firebase';
import type { ImportReport } from './report';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const HASH_PARAMS = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
};

let db: Db;
let kind: 'pglite' | 'postgres';
let app: App;
let objectStore: ObjectStore;
let storage: string;
let first: ImportReport;

/** The storage copy: one good image, one damaged, and a flagged document without any. */
async function makeStorage(): Promise<string> {
  const root = join(tmpdir(), `bmet-firebase-storage-${randomUUID()}`);
  mkdirSync(join(root, 'images', 'drv1'), { recursive: true });
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  writeFileSync(join(root, 'images', 'drv1', 'aadharCard.jpg'), photo);
  // The vehicle's insurance, which the app uploads beside the spec's ten.
  writeFileSync(join(root, 'images', 'drv1', 'vehicleInsurance.jpg'), photo);
  writeFileSync(join(root, 'images', 'drv1', 'panCard.jpg'), Buffer.from('not really a jpeg'));
  return root;
}

function run(overrides: Partial<ImportOptions> = {}) {
  return importFirebase(db, {
    database: join(FIXTURES, 'database.json'),
    auth: join(FIXTURES, 'users.json'),
    hashParams: HASH_PARAMS,
    storage,
    dryRun: false,
    jwtSecret: TEST_JWT_SECRET,
    objectStore,
    batchSize: 2,
    parallelWrites: kind === 'postgres' ? 2 : 1,
    ...overrides,
  });
}

async function countImported(): Promise<Record<string, number>> {
  const [row] = rowsOf(
    await db.execute(sql`select
      (select count(*) from accounts where firebase_key is not null)::int as accounts,
      (select count(*) from drivers where firebase_key is not null)::int as drivers,
      (select count(*) from customers where firebase_key is not null)::int as customers,
      (select count(*) from trips where firebase_key is not null)::int as trips,
      (select count(*) from trip_messages)::int as messages,
      (select count(*) from driver_wallet_entries)::int as wallet,
      (select count(*) from driver_booking_history)::int as history,
      (select count(*) from firebase_hash_params)::int as params`),
  );
  return row as Record<string, number>;
}

const byKey = async <T extends typeof drivers | typeof trips | typeof customers | typeof accounts>(
  table: T,
  key: string,
) => {
  const [row] = await db
    .select()
    .from(table as typeof drivers)
    .where(eq((table as typeof drivers).firebaseKey, key));
  return row as unknown as T['$inferSelect'];
};

const notesOf = (report: ImportReport, action: string) =>
  report.notes.filter((entry) => entry.action === action).map((entry) => `${entry.kind} ${entry.key}`);

beforeAll(async () => {
  ({ db, kind } = await getTestDatabase());
  const options = testAppOptions(db);
  objectStore = options.objectStore;
  app = await buildApp(options);
  await app.ready();
  storage = await makeStorage();
});
afterAll(async () => {
  await app?.close();
});

describe('the Firebase import', () => {
  it('changes nothing on a dry run, and says what it would do', async () => {
    const before = await countImported();
    const report = await run({ dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.counts.trips).toMatchObject({ new: 6, skipped: 2 });
    expect(report.counts.drivers).toMatchObject({ new: 2, skipped: 2 });
    expect(await countImported()).toEqual(before);
    expect(await objectStore.get(`images/none/aadharCard.jpg`)).toBeNull();
  });

  it('brings every kind across, reporting each skipped and repaired record', async () => {
    first = await run();
    const c = first.counts;
    expect(c.staffAccounts).toEqual({ new: 4, updated: 0, unchanged: 0, skipped: 0 });
    expect(c.dealers).toMatchObject({ skipped: 1 });
    expect(c.franchises.new + c.franchises.updated).toBe(2);
    expect(c.drivers).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 2 });
    expect(c.documents).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 1 });
    expect(c.ratings).toEqual({ new: 3, updated: 0, unchanged: 0, skipped: 0 });
    expect(c.bookingHistory).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 0 });
    expect(c.walletEntries).toEqual({ new: 3, updated: 0, unchanged: 0, skipped: 1 });
    expect(c.customers).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 1 });
    expect(c.trips).toEqual({ new: 6, updated: 0, unchanged: 0, skipped: 2 });
    expect(c.tripMessages).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 0 });
    expect(c.rates.skipped).toBe(3);
    expect(notesOf(first, 'skipped')).toEqual(
      expect.arrayContaining([
        'dealers dealerOnlyName',
        'drivers drvNumber',
        'drivers drvString',
        'customers custBad',
        'trips -NQx0000000000000006',
        'trips -NQx0000000000000008',
        'rates ladakh',
        'rates dadra and nagar haveli and daman and diu',
        'rates karnataka/spaceship',
        'walletEntries drv1/-NQt0000000000000004',
        'documents drv1/panCard',
      ]),
    );
    expect(notesOf(first, 'repaired')).toEqual(
      expect.arrayContaining(['rates karnataka/auto', 'trips -NQx0000000000000007', 'drivers drv2']),
    );
    expect(notesOf(first, 'listed')).toEqual(
      expect.arrayContaining([
        'staffAccounts adminNoHash',
        'franchises franNoAuth',
        'documents drv1',
        'documents drv1/driverLicence',
      ]),
    );
  });

  it('reads the apps’ quirks: phones, positions as text, prices, IST dates, statuses', async () => {
    const driver = await byKey(drivers, 'drv1');
    expect(driver).toMatchObject({
      name: 'Ravi Kumar',
      email: null,
      phoneNumber: '+919876543210',
      lat: 12.9716,
      long: 77.5946,
      carModel: 'Nexon EV',
      vehicleNumber: 'KA01AB1234',
      carType: 'sedan',
      carBrand: 'Tata',
      walletBalance: 450,
      state: null,
      franchiseId: null,
    });
    expect(await byKey(drivers, 'drv2')).toMatchObject({ carType: null, phoneNumber: '+919812345678' });
    // The car details became a vehicle of its own, driven by the driver who reported it.
    const [vehicle] = await db.select().from(vehicles).where(eq(vehicles.registrationNumber, 'KA01AB1234'));
    expect(vehicle).toMatchObject({ make: 'Tata', model: 'Nexon EV', year: 2022, driverId: driver.id });
    expect(await byKey(customers, 'cust1')).toMatchObject({ name: 'Asha Rao', phoneNumber: '+919123456789' });

    const trip = (key: number) => byKey(trips, `-NQx000000000000000${key}`);
    expect(await trip(1)).toMatchObject({ status: 'requested', price: 250, distanceKm: 12, driverId: null });
    // 18:22:05.123 in India is 12:52:05.123 UTC.
    expect((await trip(1)).createdAt.toISOString()).toBe('2023-03-14T12:52:05.123Z');
    expect(await trip(2)).toMatchObject({
      status: 'assigned',
      price: 300,
      pickupLat: 12.97,
      driverId: driver.id,
    });
    expect(await trip(3)).toMatchObject({ status: 'started', price: 250 });
    expect(await trip(4)).toMatchObject({ status: 'completed', paid: true });
    expect(await trip(5)).toMatchObject({ status: 'cancelled', cancelReason: 'Driver is late' });
    expect(await trip(7)).toMatchObject({ status: 'started', driverId: null, customerId: null });
    expect((await trip(2)).customerId).toBe((await byKey(customers, 'cust1')).id);

    const rates = await db.select().from(carRates).where(eq(carRates.state, 'karnataka'));
    expect(rates.find((rate) => rate.carType === 'auto')).toMatchObject({ perKm: 11, basePrice: null });
    expect(rates.find((rate) => rate.carType === 'sedan')).toMatchObject({ perKm: 14, basePrice: 50 });
  });

  it('brings staff with their roles, names, states, dealers and disabled flags', async () => {
    const admin = await byKey(accounts, 'adminUid');
    expect(admin).toMatchObject({
      role: 'admin',
      displayName: 'Firebase Admin',
      email: 'Admin@Firebase.test',
    });
    const dealer = await byKey(accounts, 'dealerA');
    expect(dealer).toMatchObject({ role: 'city_dealer', state: 'karnataka' });
    expect(await byKey(accounts, 'franA')).toMatchObject({
      role: 'franchise',
      disabled: true,
      dealerId: dealer.id,
    });
    expect(await byKey(accounts, 'franNoAuth')).toMatchObject({
      state: null,
      dealerId: null,
      passwordHash: '!',
    });
    expect(await byKey(accounts, 'someoneElse')).toBeUndefined();
    // The hash parameters are stored sealed: the signer key is nowhere in plain text.
    const stored = JSON.stringify(rowsOf(await db.execute(sql`select * from firebase_hash_params`)));
    expect(stored).not.toContain(HASH_PARAMS.signerKey);
    expect(stored).not.toContain(Buffer.from(HASH_PARAMS.signerKey, 'base64').toString('hex'));
  });

  it('creates nothing on a second run of the same export', async () => {
    const before = await countImported();
    const again = await run();
    for (const [kind, counts] of Object.entries(again.counts)) {
      expect({ kind, new: counts.new, updated: counts.updated }).toEqual({ kind, new: 0, updated: 0 });
    }
    expect(again.counts.trips.unchanged).toBe(6);
    expect(again.counts.documents.unchanged).toBe(2);
    expect(await countImported()).toEqual(before);
  });

  it('updates what a newer export changed, and only that', async () => {
    const newer = JSON.parse(readFileSync(join(FIXTURES, 'database.json'), 'utf8'));
    newer.trips['-NQx0000000000000002'].price = 'Rs 320';
    newer.driver.drv2.name = 'Sunil Kumar Das';
    newer.driver.drv1.transaction['-NQt0000000000000005'] = {
      amount: 100,
      status: 'Money Received',
      is_added: true,
      date: '2023-03-20 10:00:00.000',
      current_balance: 560,
    };
    const path = join(tmpdir(), `bmet-newer-export-${randomUUID()}.json`);
    writeFileSync(path, JSON.stringify(newer));
    const report = await run({ database: path });
    expect(report.counts.trips).toMatchObject({ new: 0, updated: 1, unchanged: 5 });
    expect(report.counts.drivers).toMatchObject({ new: 0, updated: 1, unchanged: 1 });
    expect(report.counts.walletEntries).toMatchObject({ new: 1, updated: 0, unchanged: 3 });
    expect((await byKey(trips, '-NQx0000000000000002')).price).toBe(320);
  });
});

describe('imported staff signing in', () => {
  const signIn = (email: string, password: string, role: string) =>
    postSignIn(app, { email, password, role });

  it('verifies the Firebase password once, then keeps it as argon2id', async () => {
    const response = await signIn('admin@firebase.test', 'user1password', 'admin');
    expect(response.statusCode).toBe(200);
    expect(response.json<SignInResponse>().data.idToken).toBeTruthy();
    const admin = await byKey(accounts, 'adminUid');
    expect(admin.passwordHash).toMatch(/^\$argon2id\$/);
    expect(admin.firebasePasswordHash).toBeNull();
    expect((await signIn('admin@firebase.test', 'user1password', 'admin')).statusCode).toBe(200);
    // A later import leaves the password set here alone.
    await run();
    expect((await byKey(accounts, 'adminUid')).passwordHash).toBe(admin.passwordHash);
  });

  it('refuses a wrong password, the wrong tab and a disabled account', async () => {
    expect((await signIn('dealer.a@firebase.test', 'not-the-password', 'city_dealer')).statusCode).toBe(401);
    expect((await signIn('dealer.a@firebase.test', 'dealer-pass-2026', 'admin')).statusCode).toBe(403);
    expect((await signIn('dealer.a@firebase.test', 'dealer-pass-2026', 'city_dealer')).statusCode).toBe(200);
    const disabled = await signIn('franchise.a@firebase.test', 'franchise-pass-2026', 'franchise');
    expect(disabled.statusCode).toBe(403);
    expect((await signIn('nohash@firebase.test', 'anything-at-all', 'admin')).statusCode).toBe(401);
  });
});

describe('imported staff and the sign-in throttle', () => {
  it('locks an imported account out after five wrong passwords, as any other', async () => {
    const address = uniqueAddress();
    const attempt = (password: string) =>
      postSignIn(app, { email: 'nohash@firebase.test', password, role: 'admin' }, { remoteAddress: address });
    // Earlier tests of this file tried the account too: five failures in all lock it.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt(`wrong-password-${i}`)).statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
    expect((await attempt('still-wrong-password')).statusCode).toBe(429);
  });
});

describe('what the console shows of the import', () => {
  let token: string;
  beforeAll(async () => {
    const admin = await createAccount(db, { role: 'admin' });
    ({ token } = await issueToken(db, admin));
  });

  it('serves the imported document image, submitted for review', async () => {
    const driver = await byKey(drivers, 'drv1');
    const documents = await db.select().from(driverDocuments).where(eq(driverDocuments.driverId, driver.id));
    expect(documents.map((document) => [document.key, document.status]).sort()).toEqual([
      ['aadharCard', 'submitted'],
      ['vehicleInsurance', 'submitted'],
    ]);
    const image = await app.inject({
      url: `/api/drivers/driver/${driver.id}/documents/aadharCard/image`,
      headers: authHeader(token),
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    // The driver list reads the documents the database keeps for each driver: imported too.
    const listed = await app.inject({
      url: `/api/drivers?q=${encodeURIComponent(driver.name)}`,
      headers: authHeader(token),
    });
    expect(listed.json<DriverListResponse>().data[driver.id]?.compliance?.problems).toContainEqual({
      document: 'aadharCard',
      problem: 'awaiting_review',
    });
  });

  it('shows the wallet, newest first and paged, only within the caller’s scope', async () => {
    const driver = await byKey(drivers, 'drv1');
    const url = `/api/drivers/driver/${driver.id}/wallet?limit=2`;
    const first = await app.inject({ url, headers: authHeader(token) });
    expect(first.statusCode).toBe(200);
    const page = first.json<WalletResponse>();
    expect(page.data.balance).toBe(450);
    expect(page.data.entries.map((entry) => entry.kind)).toEqual(['Money Received', '5 Star Reward']);
    expect(page.data.entries[1]).toMatchObject({ amount: 10, credit: true, balanceAfter: 460 });
    const next = await app.inject({ url: `${url}&cursor=${page.nextCursor}`, headers: authHeader(token) });
    expect(next.json<WalletResponse>().data.entries.map((entry) => entry.kind)).toEqual([
      'Ride Accepted',
      'Recharge',
    ]);

    const franchise = await createAccount(db, { role: 'franchise' });
    const outsider = await issueToken(db, franchise);
    const refused = await app.inject({ url, headers: authHeader(outsider.token) });
    expect(refused.statusCode).toBe(404);
  });

  it('shows a trip’s chat in the order it was written', async () => {
    const trip = await byKey(trips, '-NQx0000000000000004');
    const response = await app.inject({ url: `/api/trips/${trip.id}/messages`, headers: authHeader(token) });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual([
      expect.objectContaining({ sender: 'customer', message: 'I am at gate 2' }),
      expect.objectContaining({ sender: 'driver', message: 'Coming in 2 minutes' }),
    ]);
  });
});

describe('a first import into empty tables', () => {
  it('loads in bulk, then builds the indexes and foreign keys it dropped', async () => {
    const fresh = await openDatabase({ dataDir: 'memory://' });
    try {
      const indexesOf = async () =>
        rowsOf(
          await fresh.db.execute(
            sql`select indexname from pg_indexes where tablename in ('trips', 'drivers', 'customers')
              union all select conname from pg_constraint where contype = 'f' order by 1`,
          ),
        ).map((row) => String(row.indexname));
      const before = await indexesOf();
      const report = await importFirebase(fresh.db, {
        database: join(FIXTURES, 'database.json'),
        auth: join(FIXTURES, 'users.json'),
        hashParams: HASH_PARAMS,
        dryRun: false,
        jwtSecret: TEST_JWT_SECRET,
        objectStore,
        batchSize: 2,
      });
      expect(report.counts.trips).toEqual({ new: 6, updated: 0, unchanged: 0, skipped: 2 });
      expect(report.counts.walletEntries).toMatchObject({ new: 3, skipped: 1 });
      expect(await indexesOf()).toEqual(before);
      // The vehicles of the drivers' car details, made once after the bulk load.
      const plates = rowsOf(
        await fresh.db.execute(
          sql`select registration_number from vehicles where driver_id is not null order by 1`,
        ),
      ).map((row) => row.registration_number);
      expect(plates).toEqual(['KA01AB1234', 'WB02CD5678']);
      const again = await importFirebase(fresh.db, {
        database: join(FIXTURES, 'database.json'),
        dryRun: false,
        jwtSecret: TEST_JWT_SECRET,
        objectStore,
      });
      expect(again.counts.trips).toMatchObject({ new: 0, updated: 0, unchanged: 6 });
    } finally {
      await fresh.close();
    }
  });
});

describe('the booking history after an import', () => {
  it('shows the driver app’s own history beside completed trips, a repeated one once', async () => {
    const admin = await createAccount(db, { role: 'admin' });
    const { token } = await issueToken(db, admin);
    const driver = await byKey(drivers, 'drv1');
    const response = await app.inject({
      url: `/api/drivers/driver/${driver.id}/history?limit=10`,
      headers: authHeader(token),
    });
    expect(response.statusCode).toBe(200);
    const entries = response.json<{ data: { pickUpLocation: string; price: number; dateTime: string }[] }>()
      .data;
    // The completed trip MG Road to Airport for 500 is also in the app's history: shown once.
    // (Both entries are of the same minute: their order between them is the ids'.)
    expect(entries.map((entry) => `${entry.pickUpLocation} ${entry.price}`).sort()).toEqual([
      'Indiranagar 120',
      'MG Road 500',
    ]);
    const imported = entries.find((entry) => entry.pickUpLocation === 'Indiranagar');
    expect(imported!.dateTime).toBe('2023-03-15T03:30:00.000Z');
  });
});

describe('an export that is not one', () => {
  it('is refused with a clear message, before anything is written', async () => {
    const path = join(tmpdir(), `bmet-not-an-export-${randomUUID()}.json`);
    writeFileSync(path, '[1, 2, 3]');
    const before = await countImported();
    await expect(run({ database: path, auth: undefined, hashParams: undefined })).rejects.toThrow(
      /is not a Realtime Database export/,
    );
    expect(await countImported()).toEqual(before);
  });
});
