import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { accounts, driverDocuments, drivers, trips } from '../db/schema';
import { createLocalObjectStore } from '../infra/object-store';
import { findAdminEmails } from '../modules/auth/repository';
import { TEST_JWT_SECRET } from '../../test/test-app';
import { importFirebase } from './import-firebase';
import type { ImportReport } from './report';

/**
 * An export is input from outside: a driver's key names a folder under the storage copy, and an
 * account's email becomes a way into the console. Nothing outside the storage folder is read, no
 * link inside it is followed, and no account is made of an email that is not one.
 */

const root = join(tmpdir(), `bmet-hostile-export-${randomUUID()}`);
const storage = join(root, 'storage');
let database: Database;
let report: ImportReport;

const DRIVER = { name: 'Test Driver', phoneNumber: '+919800000001', country: 'India' };
const TRIP = {
  title: 'Asha Rao',
  phoneNumber: '9123456789',
  car: 'sedan',
  date: '2023-03-14 18:22:05.123456',
  price: 'Rs 250',
  'pick-up': { location: 'MG Road', lat: 12.97, long: 77.59 },
  destination: { location: 'Airport', lat: 13.2, long: 77.7 },
};

beforeAll(async () => {
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  // A folder beside the storage copy that a key of `../` segments would reach.
  mkdirSync(join(root, 'outside'), { recursive: true });
  writeFileSync(join(root, 'outside', 'aadharCard.jpg'), photo);
  mkdirSync(join(storage, 'images', 'drvOwn'), { recursive: true });
  writeFileSync(join(storage, 'images', 'drvOwn', 'aadharCard.jpg'), photo);
  // Another driver's folder holding a link to the first driver's image, and a folder that is a link.
  mkdirSync(join(storage, 'images', 'drvLinked'), { recursive: true });
  symlinkSync(
    join(storage, 'images', 'drvOwn', 'aadharCard.jpg'),
    join(storage, 'images', 'drvLinked', 'panCard.jpg'),
  );
  symlinkSync(join(storage, 'images', 'drvOwn'), join(storage, 'images', 'drvFolderLink'));

  const exportFile = join(root, 'database.json');
  writeFileSync(
    exportFile,
    JSON.stringify({
      driver: {
        drvOwn: { ...DRIVER, documents: ['aadharCard'] },
        '../../outside': { ...DRIVER, phoneNumber: '+919800000002' },
        drvLinked: { ...DRIVER, phoneNumber: '+919800000003' },
        drvFolderLink: { ...DRIVER, phoneNumber: '+919800000004' },
        drvNul: { ...DRIVER, name: 'Ravi\u0000 Kumar', phoneNumber: '+919800000005' },
      },
      trips: {
        '-NQx0000000000000001': { ...TRIP, title: 'Asha \ud800Rao' },
        '-NQx0000000000000002': { ...TRIP, date: '9999-12-31 23:59:59' },
        '-NQx0000000000000003': { ...TRIP, date: 9e15 },
        '\udc00-NQx000000000004': TRIP,
      },
    }),
  );
  const usersFile = join(root, 'users.json');
  const admin = (localId: string, email: string) => ({
    localId,
    email,
    customAttributes: JSON.stringify({ admin: true }),
  });
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [
        admin('goodAdmin', ' Good.Admin@Firebase.test '),
        admin('notAnEmail', 'not an email'),
        admin('lookAlike', 'good.admin@firebase.test\u200b'),
        { ...admin('nulName', 'nul.name@firebase.test'), displayName: 'Nul\u0000 Name' },
      ],
    }),
  );

  database = await openDatabase({ dataDir: 'memory://' });
  report = await importFirebase(database.db, {
    database: exportFile,
    auth: usersFile,
    storage,
    dryRun: false,
    jwtSecret: TEST_JWT_SECRET,
    objectStore: createLocalObjectStore(join(root, 'objects')),
  });
}, 120_000);

afterAll(async () => {
  await database?.close();
  rmSync(root, { recursive: true, force: true });
});

async function imagesOf(key: string): Promise<string[]> {
  const [driver] = await database.db.select().from(drivers).where(eq(drivers.firebaseKey, key));
  if (!driver) return [];
  const rows = await database.db
    .select()
    .from(driverDocuments)
    .where(eq(driverDocuments.driverId, driver.id));
  return rows.filter((row) => row.objectKey).map((row) => row.key);
}

const skipped = (key: string) =>
  report.notes.filter((entry) => entry.action === 'skipped' && entry.key.startsWith(key));

describe('an import from a hostile export', () => {
  it("reads a driver's own images", async () => {
    expect(await imagesOf('drvOwn')).toEqual(['aadharCard']);
  });

  it('reads nothing outside the storage folder for a key made of ../ segments', async () => {
    expect(await imagesOf('../../outside')).toEqual([]);
    expect(skipped('../../outside')).toEqual([
      expect.objectContaining({ kind: 'documents', reason: expect.stringMatching(/cannot name a folder/) }),
    ]);
  });

  it('follows no link to another driver\u2019s image, file or folder', async () => {
    expect(await imagesOf('drvLinked')).toEqual([]);
    expect(skipped('drvLinked/panCard')).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/not a plain file/) }),
    ]);
    expect(await imagesOf('drvFolderLink')).toEqual([]);
    expect(skipped('drvFolderLink')).toEqual([
      expect.objectContaining({ reason: expect.stringMatching(/not a plain folder/) }),
    ]);
  });

  it('makes no account of an invalid or look-alike email, and says so', async () => {
    const emails = (await database.db.select({ email: accounts.email }).from(accounts)).map(
      (row) => row.email,
    );
    expect(emails.sort()).toEqual(['Good.Admin@Firebase.test', 'nul.name@firebase.test']);
    expect(await findAdminEmails(database.db)).toEqual([
      'Good.Admin@Firebase.test',
      'nul.name@firebase.test',
    ]);
    expect(skipped('notAnEmail')).toEqual([
      expect.objectContaining({ reason: 'the email "not an email" is not a valid address' }),
    ]);
    expect(skipped('lookAlike')).toEqual([
      expect.objectContaining({
        reason: 'the email "good.admin@firebase.test\\u200b" is not a valid address',
      }),
    ]);
  });

  it('stores text PostgreSQL cannot hold without it, and reports it', async () => {
    const [driver] = await database.db.select().from(drivers).where(eq(drivers.firebaseKey, 'drvNul'));
    expect(driver?.name).toBe('Ravi Kumar');
    const [trip] = await database.db
      .select()
      .from(trips)
      .where(eq(trips.firebaseKey, '-NQx0000000000000001'));
    expect(trip?.title).toBe('Asha \uFFFDRao');
    const [staff] = await database.db
      .select()
      .from(accounts)
      .where(eq(accounts.email, 'nul.name@firebase.test'));
    expect(staff?.displayName).toBe('Nul Name');
    const repaired = report.notes.filter((entry) => entry.action === 'repaired').map((entry) => entry.key);
    expect(repaired).toEqual(expect.arrayContaining(['drvNul', '-NQx0000000000000001']));
  });

  it('skips a record whose key text cannot hold, and reads far-future dates as none', async () => {
    expect(skipped('\uFFFD-NQx000000000004')).toEqual([
      expect.objectContaining({ kind: 'trips', reason: expect.stringMatching(/surrogate|broken/i) }),
    ]);
    for (const key of ['-NQx0000000000000002', '-NQx0000000000000003']) {
      const [trip] = await database.db.select().from(trips).where(eq(trips.firebaseKey, key));
      expect(trip, key).toBeDefined();
      expect(trip!.createdAt.getUTCFullYear(), key).toBeLessThan(2200);
    }
  });

  it('skips a record nested deeper than an export holds, and an amount no number holds', async () => {
    // Written as text: JSON.stringify itself runs out of stack on 20,000 levels.
    const deep = `${'{"a":'.repeat(20_000)}"x"${'}'.repeat(20_000)}`;
    const file = join(root, `deep-${randomUUID()}.json`);
    writeFileSync(
      file,
      `{"customer":{"custDeep":{"name":"Nul\\u0000 Name","x":${deep}}},"driver":{"drvHuge":${JSON.stringify({
        ...DRIVER,
        phoneNumber: '+919800000010',
        transaction: { '-NQt0000000000000001': { amount: '9'.repeat(400), status: 'Recharge' } },
      })}}}`,
    );
    const users = join(root, `deep-users-${randomUUID()}.json`);
    writeFileSync(users, `{"users":[{"localId":"deepUser","email":"deep@firebase.test","x":${deep}}]}`);
    const deepReport = await importFirebase(database.db, {
      database: file,
      auth: users,
      dryRun: false,
      jwtSecret: TEST_JWT_SECRET,
      objectStore: createLocalObjectStore(join(root, 'objects')),
    });
    const skippedHere = (key: string) =>
      deepReport.notes.filter((entry) => entry.action === 'skipped' && entry.key === key);
    expect(skippedHere('custDeep')).toEqual([
      expect.objectContaining({ kind: 'customers', reason: expect.stringMatching(/nested deeper than 32/) }),
    ]);
    expect(skippedHere('users[0]')).toEqual([
      expect.objectContaining({
        kind: 'staffAccounts',
        reason: expect.stringMatching(/nested deeper than 32/),
      }),
    ]);
    expect(skippedHere('drvHuge/-NQt0000000000000001')).toEqual([
      expect.objectContaining({ kind: 'walletEntries', reason: 'wallet entry without amount or kind' }),
    ]);
    const [driver] = await database.db.select().from(drivers).where(eq(drivers.firebaseKey, 'drvHuge'));
    expect(driver).toBeDefined();
  });

  it('refuses a file cut short, or with more after it, before writing anything, naming the byte', async () => {
    const whole = JSON.stringify({
      driver: { drvLate: { ...DRIVER, phoneNumber: '+919800000009' } },
      trips: { '-NQx0000000000000009': TRIP },
    });
    const count = async () => (await database.db.select().from(drivers)).length;
    const before = await count();
    const cut = whole.slice(0, whole.indexOf('trips') + 12);
    for (const [text, byte] of [
      [cut, Buffer.byteLength(cut)],
      [`${whole}${whole}`, Buffer.byteLength(whole)],
      [`${whole}\ntrailing`, Buffer.byteLength(whole) + 1],
    ] as const) {
      const file = join(root, `damaged-${randomUUID()}.json`);
      writeFileSync(file, text);
      await expect(
        importFirebase(database.db, {
          database: file,
          dryRun: false,
          jwtSecret: TEST_JWT_SECRET,
          objectStore: createLocalObjectStore(join(root, 'objects')),
        }),
      ).rejects.toThrow(new RegExp(`at byte ${byte}: .*Nothing was imported`));
    }
    expect(await count()).toBe(before);
  });
});
