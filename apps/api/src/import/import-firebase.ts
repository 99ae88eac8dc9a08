import { createHash } from 'node:crypto';
import { lstat, open, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { DOCUMENT_KEYS } from '@bmet/shared/constants';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { PgTable } from 'drizzle-orm/pg-core';
import { loadWithIndexesBuiltAfter } from '../seed/bulk-insert';
import {
  customerRatings,
  customers,
  driverBookingHistory,
  driverDocuments,
  driverRatings,
  drivers,
  driverWalletEntries,
  tripMessages,
  trips,
} from '../db/schema';
import { documentObjectKey, type ObjectStore } from '../infra/object-store';
import type { FirebaseHashParams } from '../modules/auth/firebase-password';
import { prepareDocumentImage } from '../modules/drivers/document-image';
import { findTextProblem, textProblem } from '../lib/text';
import {
  checkDatabaseExport,
  ExportStructureError,
  readDatabaseExport,
  type ExportReading,
} from './database-export';
import { storableText, withStorableText } from './firebase-values';
import {
  CUSTOMER_RATING_SPEC,
  CUSTOMER_SPEC,
  DRIVER_RATING_SPEC,
  DRIVER_SPEC,
  HISTORY_SPEC,
  MESSAGE_SPEC,
  TRIP_SPEC,
  WALLET_SPEC,
  readCustomer,
  readDriver,
  readRates,
  readTrip,
  type DriverRows,
  type Finding,
} from './records';
import { countWrite, createReport, note, skip, type ImportKind, type ImportReport } from './report';
import { readAuthExport, StaffImport, storeHashParams, type AuthUser } from './staff';
import { findIdsByKey, upsertByFirebaseKey, type UpsertSpec } from './upsert';

export type ImportOptions = {
  /** The Realtime Database export (JSON). */
  database: string;
  /** The Authentication export and the project's password hash parameters. */
  auth?: string;
  hashParams?: FirebaseHashParams;
  /** A copy of the bucket's folder holding images/{driver uid}/{document}.jpg. */
  storage?: string;
  dryRun: boolean;
  jwtSecret: string;
  objectStore: ObjectStore;
  /** Called as the export is read: bytes read so far and the file's size. */
  onProgress?: (read: number, size: number) => void;
  /** Records per write (tests make it small to cross batch edges). */
  batchSize?: number;
  /**
   * Batches written at once, each on a connection of its own: 2 on PostgreSQL, whose server works
   * beside this process; 1 (the default) on the embedded database, which runs in this process.
   */
  parallelWrites?: number;
};

/**
 * The tables each section writes. When the first is empty (a first import), the section is loaded
 * in one transaction with their secondary indexes dropped before and built once after, as the
 * demo data is: maintaining a trigram index row by row over a million trips costs many times more
 * than building it. A failure or a kill rolls the whole section back, indexes included. The figures
 * kept from these tables (a driver's mandatory documents among them) are computed once after it.
 */
const SECTION_TABLES: Record<string, PgTable[]> = {
  driver: [drivers, driverRatings, driverBookingHistory, driverWalletEntries, driverDocuments],
  customer: [customers, customerRatings],
  trips: [trips, tripMessages],
};

/** Sections whose batches do not depend on each other (staff nodes are few, and checked one by one). */
const PARALLEL_SECTIONS = new Set(['driver', 'customer', 'trips']);

const SECTIONS = new Set(['city_dealer', 'franchise', 'driver', 'customer', 'trips', 'state']);
class DryRunRollback extends Error {}

/** A file the import cannot read at all; damaged records are reported instead. */
export class ImportError extends Error {}

/** Whether the file starts as a JSON object. */
async function startsAsObject(path: string): Promise<boolean> {
  const handle = await open(path);
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(1024), 0, 1024, 0);
    const start = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart();
    return start.startsWith('{');
  } finally {
    await handle.close();
  }
}

/**
 * Brings a Firebase project's data into the database: staff from the Authentication export first,
 * then the Realtime Database export read as a stream, a batch of records per write. Every record is
 * keyed by its Firebase key, so a second run of the same export changes nothing and a newer one
 * updates what changed. A dry run does the same work in a transaction it then rolls back, and
 * stores no image.
 */
export async function importFirebase(db: Db, options: ImportOptions): Promise<ImportReport> {
  const report = createReport(options.dryRun);
  const started = performance.now();
  if (!(await startsAsObject(options.database))) {
    throw new ImportError(`${options.database} is not a Realtime Database export (a JSON object).`);
  }
  // A file cut short, or with more after its end, would import what it holds and say nothing.
  try {
    await checkDatabaseExport(options.database);
  } catch (error) {
    if (!(error instanceof ExportStructureError)) throw error;
    throw new ImportError(
      `${options.database} is not a whole export, ${error.message}. Nothing was imported.`,
    );
  }
  const users = options.auth ? await readAuthExport(options.auth) : new Map<string, AuthUser>();
  if (!options.dryRun) {
    await new Importer(db, options, report, users).run();
  } else {
    try {
      await db.transaction(async (tx) => {
        await new Importer(tx as unknown as Db, options, report, users).run();
        throw new DryRunRollback();
      });
    } catch (error) {
      if (!(error instanceof DryRunRollback)) throw error;
    }
  }
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

type Batch = { section: string; records: { key: string; value: unknown }[] };

class Importer {
  private staff!: StaffImport;
  /** The writes under way: the next batch is read while they run. */
  private readonly writing = new Set<Promise<void>>();
  private batch: Batch = { section: '', records: [] };
  private section = '';
  private sectionStarted = 0;
  /** The transaction of a section loaded in bulk, and how to end it. */
  private bulk: { db: Db; finish: (error?: unknown) => Promise<void> } | null = null;
  private readonly batchSize: number;
  private readonly parallel: number;

  constructor(
    private readonly db: Db,
    private readonly options: ImportOptions,
    private readonly report: ImportReport,
    private readonly users: Map<string, AuthUser>,
  ) {
    this.batchSize = options.batchSize ?? 2500;
    this.parallel = options.parallelWrites ?? 1;
  }

  async run(): Promise<void> {
    const { db, options } = this;
    const hashParamsId = options.hashParams
      ? await storeHashParams(db, options.hashParams, options.jwtSecret)
      : null;
    this.staff = new StaffImport(db, this.report, this.users, hashParamsId);
    await this.staff.importAuthUsers();

    // Other nodes (leftovers such as active_driver and refers) hold nothing the console keeps.
    const reading = readDatabaseExport(options.database, (section) => SECTIONS.has(section));
    try {
      await this.readAll(reading);
    } catch (error) {
      await Promise.allSettled(this.writing);
      await this.bulk?.finish(error);
      this.bulk = null;
      throw error;
    }
    await this.staff.linkFranchises();
  }

  private async readAll(reading: ExportReading): Promise<void> {
    for await (const record of reading.records) {
      if (record.section !== this.batch.section || this.batch.records.length >= this.currentBatchSize()) {
        await this.submit(reading.bytesRead(), reading.size);
        this.batch = { section: record.section, records: [] };
      }
      if ('damaged' in record) {
        skip(this.report, kindOfSection(record.section), record.key, record.damaged);
        continue;
      }
      // Text PostgreSQL cannot hold (NUL, half a character) would fail the whole batch: a key
      // holding it cannot be kept as the record's key, a value holding it is stored without it.
      const kind = kindOfSection(record.section);
      if (textProblem(record.key)) {
        skip(
          this.report,
          kind,
          storableText(record.key),
          `its key ${textProblem(record.key)!.toLowerCase()}`,
        );
        continue;
      }
      const found = findTextProblem(record.value);
      if (found) {
        note(
          this.report,
          kind,
          record.key,
          'repaired',
          `${found.field}: ${found.problem} Stored without it.`,
        );
        this.batch.records.push({ ...record, value: withStorableText(record.value) });
        continue;
      }
      this.batch.records.push(record);
    }
    await this.submit(reading.bytesRead(), reading.size);
    await this.endSection();
    this.timeSection('');
  }

  private async submit(read: number, size: number): Promise<void> {
    const batch = this.batch;
    if (batch.records.length === 0) return;
    if (batch.section !== this.section) {
      // A section starts once the one before is written: trips find the drivers just imported.
      await this.endSection();
      this.timeSection(batch.section);
      // The planner then finds a trip's driver and customer by index, not by hashing both tables.
      if (batch.section === 'trips') await this.db.execute(sql`analyze drivers, customers`);
      await this.startBulk(batch.section);
    }
    const parallel =
      PARALLEL_SECTIONS.has(batch.section) && !this.options.dryRun && !this.bulk ? this.parallel : 1;
    while (this.writing.size >= parallel) await Promise.race(this.writing);
    this.options.onProgress?.(read, size);
    const write: Promise<void> = this.write(batch).finally(() => this.writing.delete(write));
    // Failures surface at the next wait for the writes; until then they are not "unhandled".
    write.catch(() => {});
    this.writing.add(write);
  }

  private async drain(): Promise<void> {
    await Promise.all(this.writing);
  }

  /**
   * Records per write. A bulk load takes bigger batches: its statements are not competing with
   * anyone, and each statement costs the dashboard figures' trigger a fixed few tens of milliseconds.
   */
  private currentBatchSize(): number {
    return this.bulk ? this.batchSize * 4 : this.batchSize;
  }

  /** Waits for the section's writes, then ends its bulk load (building its indexes) if it has one. */
  private async endSection(): Promise<void> {
    await this.drain();
    const bulk = this.bulk;
    this.bulk = null;
    await bulk?.finish();
  }

  private async startBulk(section: string): Promise<void> {
    const tables = SECTION_TABLES[section];
    if (!tables || this.options.dryRun) return;
    const [empty] = rowsOf(
      await this.db.execute(sql`select not exists (select 1 from ${tables[0]!}) as empty`),
    );
    if (!empty?.empty) return;
    let opened: (tx: Db) => void = () => {};
    let end: (error?: unknown) => void = () => {};
    const open = new Promise<Db>((resolve) => (opened = resolve));
    const done = loadWithIndexesBuiltAfter(
      this.db,
      tables,
      (tx) => {
        opened(tx);
        return new Promise<void>((resolve, reject) => {
          end = (error) => (error === undefined ? resolve() : reject(error));
        });
      },
      { foreignKeys: true },
    );
    done.catch(() => {});
    const tx = await Promise.race([open, done.then(() => open)]);
    this.bulk = {
      db: tx,
      finish: async (error?: unknown) => {
        end(error);
        if (error === undefined) await done;
        else await done.catch(() => {});
      },
    };
  }

  /** Ends the current section's clock (a section's time runs from its first read to its last write). */
  private timeSection(next: string): void {
    const now = performance.now();
    if (this.section) {
      const seconds = this.report.sectionSeconds;
      seconds[this.section] = (seconds[this.section] ?? 0) + (now - this.sectionStarted) / 1000;
    }
    this.section = next;
    this.sectionStarted = now;
  }

  private async write(batch: Batch): Promise<void> {
    switch (batch.section) {
      case 'city_dealer':
      case 'franchise':
        for (const { key, value } of batch.records) await this.staff.importNode(batch.section, key, value);
        return;
      case 'driver':
        return this.writeDrivers(batch);
      case 'customer':
        return this.writeCustomers(batch);
      case 'trips':
        return this.writeTrips(batch);
      case 'state':
        for (const { key, value } of batch.records) await this.writeRates(key, value);
        return;
    }
  }

  /** One batch's statements in one transaction (a dry run already runs in one). */
  private inTransaction(work: (db: Db) => Promise<void>): Promise<void> {
    if (this.bulk) return work(this.bulk.db);
    if (this.options.dryRun) return work(this.db);
    return this.db.transaction((tx) => work(tx as unknown as Db));
  }

  private findings(kind: ImportKind, findings: Finding[]): void {
    for (const finding of findings) {
      const findingKind = finding.kind ?? kind;
      if (finding.action === 'skipped') skip(this.report, findingKind, finding.key, finding.reason);
      else note(this.report, findingKind, finding.key, finding.action, finding.reason);
    }
  }

  private async upsert(db: Db, kind: ImportKind, spec: UpsertSpec, rows: Record<string, unknown>[]) {
    const written = await upsertByFirebaseKey(db, spec, rows);
    const required = spec.parents?.find((parent) => parent.required)?.key;
    const orphans = required ? (written.missing.get(required) ?? new Set<string>()) : new Set<string>();
    for (const key of orphans) skip(this.report, kind, key, 'its parent record was not imported');
    const keys = [...new Set(rows.map((row) => String(row.firebase_key)))].filter((key) => !orphans.has(key));
    countWrite(this.report, kind, keys, written);
    return written;
  }

  private async writeDrivers(batch: Batch): Promise<void> {
    const read: DriverRows[] = [];
    for (const { key, value } of batch.records) {
      const rows = readDriver(key, value);
      if ('action' in rows) this.findings('drivers', [rows]);
      else {
        this.findings('drivers', rows.findings);
        read.push(rows);
      }
    }
    await this.inTransaction(async (db) => {
      await this.upsert(
        db,
        'drivers',
        DRIVER_SPEC,
        read.map((rows) => rows.driver),
      );
      await this.upsert(
        db,
        'ratings',
        DRIVER_RATING_SPEC,
        read.flatMap((rows) => rows.ratings),
      );
      await this.upsert(
        db,
        'bookingHistory',
        HISTORY_SPEC,
        read.flatMap((rows) => rows.history),
      );
      await this.upsert(
        db,
        'walletEntries',
        WALLET_SPEC,
        read.flatMap((rows) => rows.wallet),
      );
    });
    if (this.options.storage) await this.writeDocuments(this.bulk?.db ?? this.db, read);
  }

  private async writeCustomers(batch: Batch): Promise<void> {
    const customers: Record<string, unknown>[] = [];
    const ratings: Record<string, unknown>[] = [];
    for (const { key, value } of batch.records) {
      const rows = readCustomer(key, value);
      if ('action' in rows) this.findings('customers', [rows]);
      else {
        this.findings('customers', rows.findings);
        customers.push(rows.customer);
        ratings.push(...rows.ratings);
      }
    }
    await this.inTransaction(async (db) => {
      await this.upsert(db, 'customers', CUSTOMER_SPEC, customers);
      await this.upsert(db, 'ratings', CUSTOMER_RATING_SPEC, ratings);
    });
  }

  private async writeTrips(batch: Batch): Promise<void> {
    const trips: Record<string, unknown>[] = [];
    const messages: Record<string, unknown>[] = [];
    for (const { key, value } of batch.records) {
      const rows = readTrip(key, value);
      if ('action' in rows) this.findings('trips', [rows]);
      else {
        this.findings('trips', rows.findings);
        trips.push(rows.trip);
        messages.push(...rows.messages);
      }
    }
    await this.inTransaction(async (db) => {
      const written = await this.upsert(db, 'trips', TRIP_SPEC, trips);
      const byKey = new Map(trips.map((trip) => [String(trip.firebase_key), trip]));
      for (const [field, keys] of written.missing) {
        const what = field === 'driver_key' ? 'driver' : 'customer';
        for (const key of keys) {
          const parent = String(byKey.get(key)?.[field]);
          note(
            this.report,
            'trips',
            key,
            'repaired',
            `its ${what} ${parent} does not exist: kept without one`,
          );
        }
      }
      await this.upsert(db, 'tripMessages', MESSAGE_SPEC, messages);
    });
  }

  private async writeRates(key: string, value: unknown): Promise<void> {
    const read = readRates(key, value);
    if ('action' in read) return this.findings('rates', [read]);
    this.findings('rates', read.findings);
    if (read.rows.length === 0) return;
    const answer = rowsOf(
      await this.db.execute(sql`
        insert into car_rates as t (state, car_type, per_km, base_price, night_charge, waiting_charge,
          rush_hour, sur_charges, extra)
        select v.state, v.car_type, v."per_km", v."basePrice", v."nightCharge", v."waitingCharge",
          v."rushHour", v."surCharges", v.extra
        from json_to_recordset(${JSON.stringify(read.rows)}::json) as v(state text, car_type text,
          "per_km" double precision, "basePrice" double precision, "nightCharge" double precision,
          "waitingCharge" double precision, "rushHour" double precision, "surCharges" double precision,
          extra double precision)
        on conflict (state, car_type) do update set per_km = excluded.per_km, base_price = excluded.base_price,
          night_charge = excluded.night_charge, waiting_charge = excluded.waiting_charge,
          rush_hour = excluded.rush_hour, sur_charges = excluded.sur_charges, extra = excluded.extra,
          version = t.version + 1, updated_at = now(), updated_by = null
        where (t.per_km, t.base_price, t.night_charge, t.waiting_charge, t.rush_hour, t.sur_charges, t.extra)
          is distinct from (excluded.per_km, excluded.base_price, excluded.night_charge,
            excluded.waiting_charge, excluded.rush_hour, excluded.sur_charges, excluded.extra)
        returning t.state || '/' || t.car_type as key, (t.xmax = 0) as inserted`),
    );
    const inserted = new Set(answer.filter((row) => row.inserted).map((row) => String(row.key)));
    const updated = new Set(answer.filter((row) => !row.inserted).map((row) => String(row.key)));
    countWrite(
      this.report,
      'rates',
      read.rows.map((row) => `${String(row.state)}/${String(row.car_type)}`),
      { inserted, updated },
    );
  }

  /**
   * The document images of a batch of drivers, checked and re-encoded as uploads are. An image
   * present means submitted for review; an image equal to the one stored already changes nothing,
   * and a review made in the console stays.
   */
  private async writeDocuments(db: Db, read: DriverRows[]): Promise<void> {
    const ids = await findIdsByKey(
      db,
      'drivers',
      read.map((rows) => String(rows.driver.firebase_key)),
    );
    for (const rows of read) {
      const uid = String(rows.driver.firebase_key);
      const driverId = ids.get(uid);
      if (!driverId) continue;
      const folder = await this.imageFolderOf(uid);
      if (folder === null) continue;
      const files = new Set(folder ? await readdir(folder).catch(() => [] as string[]) : []);
      for (const key of DOCUMENT_KEYS) {
        const file = files.has(`${key}.jpg`) ? `${key}.jpg` : files.has(`${key}.jpeg`) ? `${key}.jpeg` : null;
        if (!file) {
          if (rows.documents.includes(key)) {
            note(
              this.report,
              'documents',
              `${uid}/${key}`,
              'listed',
              'flagged as uploaded, but there is no image',
            );
          }
          continue;
        }
        const path = join(folder!, file);
        // A link could lead anywhere, another driver's image included: only plain files are read.
        if (!(await lstat(path).catch(() => null))?.isFile()) {
          skip(this.report, 'documents', `${uid}/${key}`, `${file} is not a plain file (a link?): not read`);
          continue;
        }
        await this.writeDocument(db, driverId, `${uid}/${key}`, key, path);
      }
    }
  }

  /**
   * The folder of a driver's images under `storage/images`: '' when there is none, null (reported)
   * when the driver's key cannot name a folder there (`../` segments and the like) or the folder is a
   * link. Nothing outside the storage folder is ever read.
   */
  private async imageFolderOf(uid: string): Promise<string | null> {
    const images = join(this.options.storage!, 'images');
    if (!isFolderName(uid)) {
      skip(
        this.report,
        'documents',
        uid,
        'the driver key cannot name a folder of images: its images are not read',
      );
      return null;
    }
    const stat = await lstat(join(images, uid)).catch(() => null);
    if (!stat) return '';
    if (!stat.isDirectory()) {
      skip(this.report, 'documents', uid, `images/${uid} is not a plain folder (a link?): not read`);
      return null;
    }
    return join(images, uid);
  }

  private async writeDocument(db: Db, driverId: string, reportKey: string, key: string, path: string) {
    const { report, options } = this;
    let image: Awaited<ReturnType<typeof prepareDocumentImage>>;
    try {
      image = await prepareDocumentImage(await readFile(path), 'image/jpeg');
    } catch (error) {
      return skip(report, 'documents', reportKey, `image not usable: ${(error as Error).message}`);
    }
    const objectKey = documentObjectKey(driverId, key, image.extension);
    const [existing] = await db
      .select()
      .from(driverDocuments)
      .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)));
    if (existing?.objectKey === objectKey && existing.status !== 'not_submitted') {
      const stored = await options.objectStore.get(objectKey);
      if (stored && sha256(stored.body) === sha256(image.body)) {
        report.counts.documents.unchanged++;
        return;
      }
    }
    if (!options.dryRun) await options.objectStore.put(objectKey, image.body, image.contentType);
    const values = {
      status: 'submitted' as const,
      objectKey,
      contentType: image.contentType,
      size: image.body.length,
      uploadedAt: new Date(),
      reviewedBy: null,
      reviewedAt: null,
      rejectionReason: null,
    };
    await db
      .insert(driverDocuments)
      .values({ driverId, key, ...values })
      .onConflictDoUpdate({ target: [driverDocuments.driverId, driverDocuments.key], set: values });
    report.counts.documents[existing ? 'updated' : 'new']++;
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function kindOfSection(section: string): ImportKind {
  const kinds: Record<string, ImportKind> = {
    city_dealer: 'dealers',
    franchise: 'franchises',
    driver: 'drivers',
    customer: 'customers',
    trips: 'trips',
    state: 'rates',
  };
  return kinds[section] ?? 'trips';
}

/**
 * Whether a Firebase key can name one folder below another: none of the characters Firebase keeps
 * out of keys (. $ # [ ] /, control characters), so no `..`, no separator, nothing outside.
 */
function isFolderName(key: string): boolean {
  return (
    key.length > 0 && /^[^./\\#$[\]]+$/.test(key) && ![...key].some((char) => char < ' ' || char === '\u007f')
  );
}
