import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { createLocalObjectStore, type ObjectStore } from '../infra/object-store';
import { TEST_JWT_SECRET } from '../../test/test-app';
import { ImportStoppedError } from './import-error';
import { importFirebase, type ImportOptions } from './import-firebase';
import { formatReport, IMPORT_KINDS, type ImportReport } from './report';

/**
 * A run that fails once it has started writing (the database refuses a write, here through a
 * trigger a test adds, as a full disk or a lost connection would) says what it left: sections
 * committed with their counts, the one that failed and what of it stays, the ones not reached. The
 * same command run again completes the import: its end state is a clean run's, nothing doubled.
 * Each case starts from an empty database of its own: the embedded one, or PostgreSQL when
 * TEST_DATABASE_URL is set (a database made for it, dropped after).
 */

const FIXTURES = join(import.meta.dirname, 'fixtures');
const root = join(tmpdir(), `bmet-stopped-import-${randomUUID()}`);
const storage = join(root, 'storage');
const HASH_PARAMS = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
};
const url = process.env.TEST_DATABASE_URL;
const closers: (() => Promise<unknown>)[] = [];
let databases = 0;
/** Each database's images, kept from one run to the next as a deployment's are. */
const stores = new WeakMap<Database, ObjectStore>();

/** An empty database, migrated. */
async function openEmptyDatabase(): Promise<Database> {
  if (!url) {
    const database = await openDatabase({ dataDir: 'memory://' });
    closers.push(() => database.close());
    return database;
  }
  const name = `bmet_stopped_import_${process.pid}_${++databases}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin`drop database if exists ${admin(name)} with (force)`;
  await admin`create database ${admin(name)}`;
  const address = new URL(url);
  address.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: address.toString(), dataDir: 'memory://' });
  closers.push(async () => {
    await database.close();
    await admin`drop database if exists ${admin(name)} with (force)`;
    await admin.end({ timeout: 5 });
  });
  return database;
}

function storeOf(database: Database): ObjectStore {
  let store = stores.get(database);
  if (!store) {
    store = createLocalObjectStore(join(root, 'objects', randomUUID()));
    stores.set(database, store);
  }
  return store;
}

function run(database: Database, overrides: Partial<ImportOptions> = {}) {
  return importFirebase(database.db, {
    database: join(FIXTURES, 'database.json'),
    auth: join(FIXTURES, 'users.json'),
    hashParams: HASH_PARAMS,
    storage,
    dryRun: false,
    jwtSecret: TEST_JWT_SECRET,
    objectStore: storeOf(database),
    batchSize: 2,
    parallelWrites: database.kind === 'postgres' ? 2 : 1,
    ...overrides,
  });
}

/** The run's failure, which must be one that stopped it halfway. */
async function stoppedRun(database: Database, overrides: Partial<ImportOptions> = {}) {
  const error = await run(database, overrides).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ImportStoppedError);
  return error as ImportStoppedError;
}

/** Makes the database refuse to write rows of `table` for which `condition` holds. */
async function refuse(db: Db, table: string, condition: string) {
  await db.execute(
    sql.raw(`create function refuse_${table}() returns trigger language plpgsql as $$ begin
      if ${condition} then raise exception '% refused by the test', '${table}'; end if;
      return new; end $$`),
  );
  await db.execute(
    sql.raw(`create trigger refuse_${table} before insert or update on ${table}
      for each row execute function refuse_${table}()`),
  );
}

async function allow(db: Db, table: string) {
  await db.execute(sql.raw(`drop trigger refuse_${table} on ${table}`));
}

/**
 * Everything an import writes, as it reads: rows without their generated ids and times, parents by
 * their Firebase keys, and the figures kept from them. Two runs that leave the same rows compare equal.
 */
const CONTENT = {
  accounts: `select to_jsonb(a) - array['id', 'created_at', 'dealer_id', 'firebase_hash_params_id']
    || jsonb_build_object('dealer', d.firebase_key) as row
    from accounts a left join accounts d on d.id = a.dealer_id where a.firebase_key is not null`,
  hashParams: `select jsonb_build_object('fingerprint', fingerprint, 'rounds', rounds) as row from firebase_hash_params`,
  drivers: `select to_jsonb(t) - array['id', 'created_at'] as row from drivers t`,
  driverRatings: `select to_jsonb(t) - array['id', 'driver_id'] || jsonb_build_object('driver', d.firebase_key)
    as row from driver_ratings t join drivers d on d.id = t.driver_id`,
  history: `select to_jsonb(t) - array['id', 'driver_id'] || jsonb_build_object('driver', d.firebase_key)
    as row from driver_booking_history t join drivers d on d.id = t.driver_id`,
  wallet: `select to_jsonb(t) - array['id', 'driver_id'] || jsonb_build_object('driver', d.firebase_key)
    as row from driver_wallet_entries t join drivers d on d.id = t.driver_id`,
  documents: `select to_jsonb(t) - array['driver_id', 'object_key', 'uploaded_at']
    || jsonb_build_object('driver', d.firebase_key) as row
    from driver_documents t join drivers d on d.id = t.driver_id`,
  mandatoryDocuments: `select jsonb_build_object('driver', d.firebase_key, 'documents', t.documents) as row
    from driver_mandatory_documents t join drivers d on d.id = t.driver_id`,
  customers: `select to_jsonb(t) - array['id', 'created_at'] as row from customers t`,
  customerRatings: `select to_jsonb(t) - array['id', 'customer_id'] || jsonb_build_object('customer', c.firebase_key)
    as row from customer_ratings t join customers c on c.id = t.customer_id`,
  trips: `select to_jsonb(t) - array['id', 'driver_id', 'customer_id']
    || jsonb_build_object('driver', d.firebase_key, 'customer', c.firebase_key) as row
    from trips t left join drivers d on d.id = t.driver_id left join customers c on c.id = t.customer_id`,
  messages: `select to_jsonb(t) - array['id', 'trip_id'] || jsonb_build_object('trip', x.firebase_key)
    as row from trip_messages t join trips x on x.id = t.trip_id`,
  rates: `select to_jsonb(t) - array['updated_at'] as row from car_rates t`,
  dailyStats: `select to_jsonb(t) as row from trip_daily_stats t`,
  hourlyStats: `select to_jsonb(t) as row from trip_hourly_stats t`,
  driverCounts: `select to_jsonb(t) as row from driver_counts t`,
  complianceCounts: `select to_jsonb(t) as row from compliance_counts t where items <> 0`,
  customerCount: `select to_jsonb(t) as row from list_counts t where list = 'customers'`,
  indexes: `select to_jsonb(i.indexdef) as row from pg_indexes i where i.schemaname = current_schema()
    union all select to_jsonb(pg_get_constraintdef(c.oid)) from pg_constraint c
    join pg_namespace n on n.oid = c.connamespace and n.nspname = current_schema()`,
};

async function contentOf(db: Db): Promise<Record<string, string[]>> {
  const content: Record<string, string[]> = {};
  for (const [name, query] of Object.entries(CONTENT)) {
    const rows = rowsOf(await db.execute(sql.raw(query)));
    content[name] = rows.map((row) => JSON.stringify(row.row)).sort();
  }
  return content;
}

async function countOf(db: Db, table: string): Promise<number> {
  const [row] = rowsOf(await db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
  return Number(row!.n);
}

const states = (report: ImportReport) => report.sections.map((entry) => `${entry.section}: ${entry.state}`);

/** The files under a folder, by their paths below it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1));
}

let reference: Database;
let clean: ImportReport;
let cleanContent: Record<string, string[]>;

beforeAll(async () => {
  mkdirSync(join(storage, 'images', 'drv1'), { recursive: true });
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  writeFileSync(join(storage, 'images', 'drv1', 'aadharCard.jpg'), photo);
  // A run that never failed: what every case must end with.
  reference = await openEmptyDatabase();
  clean = await run(reference);
  cleanContent = await contentOf(reference.db);
  expect(cleanContent.trips).toHaveLength(6);
}, 120_000);

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  rmSync(root, { recursive: true, force: true });
});

/** The second run completes the first: together they wrote what a clean run writes, nothing twice. */
function expectCompletes(stopped: ImportReport, again: ImportReport) {
  expect(again.stopped).toBeUndefined();
  expect(again.sections.every((entry) => entry.state === 'committed')).toBe(true);
  for (const kind of IMPORT_KINDS) {
    expect({ kind, new: stopped.counts[kind].new + again.counts[kind].new }).toEqual({
      kind,
      new: clean.counts[kind].new,
    });
  }
}

describe('a first import that fails in its last section', () => {
  let database: Database;
  let stopped: ImportStoppedError;

  beforeAll(async () => {
    database = await openEmptyDatabase();
    await refuse(database.db, 'trips', `new.firebase_key = '-NQx0000000000000005'`);
    stopped = await stoppedRun(database);
  }, 120_000);

  it('says in one line where it stopped, why, and what to do', () => {
    expect(stopped.expected).toBe(true);
    expect(stopped.message).toBe(
      'The import stopped in trips: the database answered "trips refused by the test" (SQLSTATE P0001). ' +
        'trips was rolled back; the 6 sections before it are committed. ' +
        'Run the same command again to complete the import.',
    );
  });

  it('reports the sections committed with their counts, the one rolled back, the ones not reached', () => {
    const { report } = stopped;
    expect(report.stopped?.section).toBe('trips');
    expect(states(report)).toEqual([
      'staff: committed',
      'city_dealer: committed',
      'customer: committed',
      'driver: committed',
      'franchise: committed',
      'state: committed',
      'trips: rolled back',
      'dealer links: not reached',
    ]);
    const driver = report.sections.find((entry) => entry.section === 'driver')!;
    expect(driver.records).toBe(4);
    expect(driver.counts.drivers).toEqual({ new: 2, updated: 0, unchanged: 0, skipped: 2 });
    expect(driver.counts.walletEntries).toEqual({ new: 3, updated: 0, unchanged: 0, skipped: 1 });
    // The counts are of what stays: nothing of the trips.
    expect(report.counts.trips).toEqual({ new: 0, updated: 0, unchanged: 0, skipped: 0 });
    expect(report.counts.drivers).toEqual(clean.counts.drivers);

    const text = formatReport(report);
    expect(text).toContain('Import stopped in trips. What this run left in the database:');
    expect(text).toContain(
      '  Committed    Staff accounts of the Authentication export (4 records): staff accounts 4 new',
    );
    expect(text).toContain(
      '  Committed    driver (4 records): drivers 2 new, 2 skipped; documents and images 1 new; ' +
        'ratings 2 new; booking history 2 new; wallet entries 3 new, 1 skipped',
    );
    expect(text).toContain('  Rolled back  trips (8 records): nothing of it was kept');
    expect(text).toContain('  Not reached  Franchises linked to their city dealers');
  });

  it('leaves what it reports: the sections before, no trip, no link, every index', async () => {
    const content = await contentOf(database.db);
    expect(content.trips).toEqual([]);
    expect(content.messages).toEqual([]);
    for (const name of ['drivers', 'wallet', 'customers', 'rates', 'documents', 'indexes'] as const) {
      expect(content[name], name).toEqual(cleanContent[name]);
    }
    expect(content.accounts!.filter((row) => row.includes('"dealer":"dealerA"'))).toEqual([]);
  });

  it('is completed by the same command, in bulk again, as if it had never failed', async () => {
    await allow(database.db, 'trips');
    const again = await run(database);
    expectCompletes(stopped.report, again);
    expect(again.counts.trips).toEqual(clean.counts.trips);
    expect(again.counts.drivers).toEqual({ new: 0, updated: 0, unchanged: 2, skipped: 2 });
    expect(again.counts.documents).toEqual({ new: 0, updated: 0, unchanged: 1, skipped: 0 });
    expect(await contentOf(database.db)).toEqual(cleanContent);
  });
});

describe('an import into filled tables that fails halfway through a section', () => {
  let database: Database;
  let stopped: ImportStoppedError;
  let tripsKept: number;

  beforeAll(async () => {
    database = await openEmptyDatabase();
    // An earlier export, its first two trips only: the trips are then written batch by batch.
    const older = JSON.parse(readFileSync(join(FIXTURES, 'database.json'), 'utf8')) as {
      trips: Record<string, unknown>;
    };
    older.trips = Object.fromEntries(Object.entries(older.trips).slice(0, 2));
    const olderFile = join(root, 'older.json');
    writeFileSync(olderFile, JSON.stringify(older));
    await run(database, { database: olderFile });
    expect(await countOf(database.db, 'trips')).toBe(2);

    await refuse(database.db, 'trips', `new.firebase_key = '-NQx0000000000000005'`);
    stopped = await stoppedRun(database);
    tripsKept = await countOf(database.db, 'trips');
  }, 120_000);

  it('says which batches of it stay, and counts exactly those', () => {
    const trips = stopped.report.sections.find((entry) => entry.section === 'trips')!;
    expect(trips.state).toBe('partly committed');
    // Batches of two: the first unchanged, the second new, the third refused (on PostgreSQL,
    // writing two batches at once, the fourth may have been written beside it).
    expect(trips.counts.trips!.unchanged).toBe(2);
    expect(trips.counts.trips!.new).toBe(tripsKept - 2);
    expect(tripsKept).toBeGreaterThanOrEqual(4);
    expect(tripsKept).toBeLessThan(6);
    expect(stopped.report.counts.trips.new).toBe(tripsKept - 2);
    expect(stopped.message).toContain(
      `trips is partly committed (${tripsKept} records kept); the 6 sections before it are committed.`,
    );
    expect(formatReport(stopped.report)).toContain(
      `  Partly committed  trips (8 records): trips ${tripsKept - 2} new, 2 unchanged`,
    );
    expect(states(stopped.report).slice(-2)).toEqual([
      'trips: partly committed',
      'dealer links: not reached',
    ]);
  });

  it('is completed by the same command: what stays is found, nothing is doubled', async () => {
    await allow(database.db, 'trips');
    const again = await run(database);
    expect(again.counts.trips).toEqual({ new: 6 - tripsKept, updated: 0, unchanged: tripsKept, skipped: 2 });
    expect(again.counts.tripMessages.new + stopped.report.counts.tripMessages.new).toBe(
      clean.counts.tripMessages.new,
    );
    expect(await contentOf(database.db)).toEqual(cleanContent);
  });
});

describe('a first import that fails among the drivers, their images stored', () => {
  let database: Database;
  let stopped: ImportStoppedError;
  const objects = join(root, 'objects-drivers');

  beforeAll(async () => {
    database = await openEmptyDatabase();
    await refuse(database.db, 'driver_documents', `new.key = 'aadharCard'`);
    stores.set(database, createLocalObjectStore(objects));
    stopped = await stoppedRun(database);
  }, 120_000);

  it('rolls the drivers back, images included, and reaches nothing after them', async () => {
    expect(states(stopped.report)).toEqual([
      'staff: committed',
      'city_dealer: committed',
      'customer: committed',
      'driver: rolled back',
      'franchise: not reached',
      'state: not reached',
      'trips: not reached',
      'dealer links: not reached',
    ]);
    expect(stopped.message).toMatch(
      /^The import stopped in driver: .* driver was rolled back; the 3 sections/,
    );
    expect(await countOf(database.db, 'drivers')).toBe(0);
    expect(filesUnder(objects)).toEqual([]);
  });

  it('is completed by the same command, each image stored once', async () => {
    await allow(database.db, 'driver_documents');
    const again = await run(database);
    expectCompletes(stopped.report, again);
    expect(await contentOf(database.db)).toEqual(cleanContent);
    expect(filesUnder(objects)).toHaveLength(1);
  });
});

describe('a dry run that fails', () => {
  it('says where, and that nothing was changed', async () => {
    await refuse(reference.db, 'customers', `new.name = 'Asha Rao (renamed)'`);
    const newer = JSON.parse(readFileSync(join(FIXTURES, 'database.json'), 'utf8')) as {
      customer: Record<string, Record<string, unknown>>;
    };
    newer.customer.cust1!.name = 'Asha Rao (renamed)';
    const newerFile = join(root, 'newer.json');
    writeFileSync(newerFile, JSON.stringify(newer));
    const stopped = await stoppedRun(reference, { database: newerFile, dryRun: true });
    await allow(reference.db, 'customers');
    expect(stopped.message).toBe(
      'The dry run stopped in customer: the database answered "customers refused by the test" ' +
        '(SQLSTATE P0001). Nothing was changed.',
    );
    expect(formatReport(stopped.report)).toContain('Dry run stopped in customer: nothing was changed.');
    expect(await contentOf(reference.db)).toEqual(cleanContent);
  });
});
