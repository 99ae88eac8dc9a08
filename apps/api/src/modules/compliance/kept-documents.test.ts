import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANDATORY_DOCUMENTS } from '@bmet/shared/document-rules';
import { rowsOf } from '../../db/rows';
import { driverDocuments, driverMandatoryDocuments, drivers } from '../../db/schema';
import { createAccount, createDriver } from '../../seed/factories';
import { getTestDatabase } from '../../../test/test-database';
import { openDatabase, type Database, type Db } from '../../db/client';
import { insertMany } from '../../seed/bulk-insert';
import { resetDatabase } from '../../seed/demo';
import { findDrivers } from '../drivers/list-repository';
import { recordChecksInOrder } from '../../../test/driver-fixtures';

type Triple = [key: string, status: string, expiresOn: string | null];

/** The kept documents of these drivers, each sorted by key; a driver without a kept row is absent. */
async function keptOf(db: Db, ids: string[]) {
  const rows = await db
    .select({ driverId: driverMandatoryDocuments.driverId, documents: driverMandatoryDocuments.documents })
    .from(driverMandatoryDocuments)
    .where(inArray(driverMandatoryDocuments.driverId, ids));
  return Object.fromEntries(
    rows.map((row) => {
      const documents = (
        typeof row.documents === 'string' ? JSON.parse(row.documents) : row.documents
      ) as Triple[];
      return [row.driverId, [...documents].sort((a, b) => a[0].localeCompare(b[0]))];
    }),
  );
}

/** The same, read from the documents themselves. */
async function actualOf(db: Db, ids: string[]) {
  const rows = await db
    .select({
      driverId: driverDocuments.driverId,
      key: driverDocuments.key,
      status: driverDocuments.status,
      expiresOn: driverDocuments.expiresOn,
    })
    .from(driverDocuments)
    .where(
      and(inArray(driverDocuments.driverId, ids), inArray(driverDocuments.key, [...MANDATORY_DOCUMENTS])),
    );
  const byDriver: Record<string, Triple[]> = {};
  for (const row of rows) (byDriver[row.driverId] ??= []).push([row.key, row.status, row.expiresOn]);
  for (const list of Object.values(byDriver)) list.sort((a, b) => a[0].localeCompare(b[0]));
  return byDriver;
}

describe("each driver's mandatory documents, kept by the database", () => {
  it('names the same documents as the code does', async () => {
    const { db } = await getTestDatabase();
    const [row] = rowsOf(await db.execute(sql`select driver_mandatory_document_keys() as keys`));
    expect(row?.keys).toEqual([...MANDATORY_DOCUMENTS]);
  });

  it('follows every write to the documents, and only the mandatory ones', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    const one = await createDriver(db, { franchiseId: franchise.id });
    const two = await createDriver(db, { franchiseId: franchise.id });
    const ids = [one.id, two.id];
    const holds = async (expected: Record<string, Triple[]>) => {
      expect(await keptOf(db, ids)).toEqual(expected);
      expect(await actualOf(db, ids)).toEqual(expected);
    };

    // Inserted in one statement for two drivers, a document that is not mandatory among them.
    await db.insert(driverDocuments).values([
      { driverId: one.id, key: 'aadharCard', status: 'submitted' },
      { driverId: one.id, key: 'driverLicence', status: 'approved', expiresOn: '2030-01-31' },
      { driverId: one.id, key: 'panCard', status: 'approved' },
      { driverId: two.id, key: 'rcCertificate', status: 'rejected' },
    ]);
    await holds({
      [one.id]: [
        ['aadharCard', 'submitted', null],
        ['driverLicence', 'approved', '2030-01-31'],
      ],
      [two.id]: [['rcCertificate', 'rejected', null]],
    });

    // A review and a new expiry.
    await db
      .update(driverDocuments)
      .set({ status: 'approved' })
      .where(and(eq(driverDocuments.driverId, one.id), eq(driverDocuments.key, 'aadharCard')));
    await db
      .update(driverDocuments)
      .set({ expiresOn: '2026-02-01' })
      .where(and(eq(driverDocuments.driverId, one.id), eq(driverDocuments.key, 'driverLicence')));
    await holds({
      [one.id]: [
        ['aadharCard', 'approved', null],
        ['driverLicence', 'approved', '2026-02-01'],
      ],
      [two.id]: [['rcCertificate', 'rejected', null]],
    });

    // A document that is not mandatory changes nothing kept; one moved to another driver moves.
    await db.update(driverDocuments).set({ status: 'rejected' }).where(eq(driverDocuments.key, 'panCard'));
    await db
      .update(driverDocuments)
      .set({ driverId: one.id })
      .where(and(eq(driverDocuments.driverId, two.id), eq(driverDocuments.key, 'rcCertificate')));
    await holds({
      [one.id]: [
        ['aadharCard', 'approved', null],
        ['driverLicence', 'approved', '2026-02-01'],
        ['rcCertificate', 'rejected', null],
      ],
    });

    // Deleted one by one, then the driver itself.
    await db
      .delete(driverDocuments)
      .where(and(eq(driverDocuments.driverId, one.id), eq(driverDocuments.key, 'aadharCard')));
    await holds({
      [one.id]: [
        ['driverLicence', 'approved', '2026-02-01'],
        ['rcCertificate', 'rejected', null],
      ],
    });
    await db.delete(drivers).where(eq(drivers.id, one.id));
    await holds({});
  });

  it('reads the same compliance in the driver list as the documents say', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    const driver = await createDriver(db, { franchiseId: franchise.id });
    await db
      .insert(driverDocuments)
      .values(MANDATORY_DOCUMENTS.map((key) => ({ driverId: driver.id, key, status: 'approved' as const })));
    await recordChecksInOrder(db, driver.id);
    const listed = async () =>
      (await findDrivers(db, { id: franchise.id, role: 'franchise' }, { limit: 50 })).drivers.find(
        (row) => row.id === driver.id,
      )?.compliance;
    expect(await listed()).toEqual({ compliant: true, problems: [], checks: [], vehicle: [] });
    await db
      .update(driverDocuments)
      .set({ status: 'rejected' })
      .where(and(eq(driverDocuments.driverId, driver.id), eq(driverDocuments.key, 'vehiclePermit')));
    expect(await listed()).toEqual({
      compliant: false,
      problems: [{ document: 'vehiclePermit', problem: 'rejected' }],
      checks: [],
      vehicle: [],
    });
  });
});

describe('the kept documents of a database of their own', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
  });
  afterAll(() => database.close());

  it('follow a transaction that writes the documents of 20,000 drivers', async () => {
    const { db } = database;
    const franchise = await createAccount(db, { role: 'franchise' });
    const many = Array.from({ length: 20_000 }, (_, i) => ({
      id: crypto.randomUUID(),
      name: `Imported driver ${i}`,
      franchiseId: franchise.id,
    }));
    await db.transaction(async (tx) => {
      await insertMany(tx, drivers, many);
      await insertMany(
        tx,
        driverDocuments,
        many.map((driver) => ({ driverId: driver.id, key: 'aadharCard', status: 'submitted' as const })),
      );
    });
    const [kept] = rowsOf(
      await db.execute(sql`select count(*)::int as n from driver_mandatory_documents
        where documents::jsonb = '[["aadharCard", "submitted", null]]'::jsonb`),
    );
    expect(kept?.n).toBe(20_000);
  });

  it('empty with the documents, and let every table be emptied at once', async () => {
    const { db } = database;
    const franchise = await createAccount(db, { role: 'franchise' });
    const driver = await createDriver(db, { franchiseId: franchise.id });
    const write = () =>
      db.insert(driverDocuments).values({ driverId: driver.id, key: 'aadharCard', status: 'approved' });
    await write();
    await db.execute(sql`truncate driver_documents`);
    expect(await keptOf(db, [driver.id])).toEqual({});
    await write();
    // As `npm run seed -- --reset` does: drivers and their documents with a cascade.
    await resetDatabase(db);
    const [left] = rowsOf(await db.execute(sql`select count(*)::int as n from driver_mandatory_documents`));
    expect(left?.n).toBe(0);
  });
});

// Two transactions at once need two connections: only a server database has them.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two writers of one driver at once', () => {
  it('keep what both of them wrote', async () => {
    const { db } = await getTestDatabase();
    const franchise = await createAccount(db, { role: 'franchise' });
    const driver = await createDriver(db, { franchiseId: franchise.id });
    // Neither write changes how many documents await review (another trigger would then make the
    // second wait on the driver's row).
    await db.insert(driverDocuments).values([
      { driverId: driver.id, key: 'driverLicence', status: 'approved' },
      { driverId: driver.id, key: 'vehiclePermit', status: 'approved' },
    ]);
    const document = (key: string) =>
      and(eq(driverDocuments.driverId, driver.id), eq(driverDocuments.key, key));

    let firstWrote!: () => void;
    const wrote = new Promise<void>((resolve) => (firstWrote = resolve));
    let letFirstCommit!: () => void;
    const commit = new Promise<void>((resolve) => (letFirstCommit = resolve));
    // The first enters a licence's expiry and holds its transaction open; the second rejects the
    // permit meanwhile, its statement's trigger reading the documents before the first commits.
    const first = db.transaction(async (tx) => {
      await tx.update(driverDocuments).set({ expiresOn: '2030-01-31' }).where(document('driverLicence'));
      firstWrote();
      await commit;
    });
    await wrote;
    const second = db.transaction(async (tx) => {
      await tx.update(driverDocuments).set({ status: 'rejected' }).where(document('vehiclePermit'));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    letFirstCommit();
    await Promise.all([first, second]);

    const expected = {
      [driver.id]: [
        ['driverLicence', 'approved', '2030-01-31'],
        ['vehiclePermit', 'rejected', null],
      ],
    };
    expect(await actualOf(db, [driver.id])).toEqual(expected);
    expect(await keptOf(db, [driver.id])).toEqual(expected);
  });
});
