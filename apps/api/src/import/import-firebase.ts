import { open } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
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
  vehicleAssignments,
  vehicles,
} from '../db/schema';
import type { ObjectStore } from '../infra/object-store';
import type { FirebaseHashParams } from '../modules/auth/firebase-password';
import { findTextProblem, textProblem } from '../lib/text';
import {
  checkDatabaseExport,
  ExportStructureError,
  readDatabaseExport,
  type ExportReading,
  type ExportSection,
} from './database-export';
import { DocumentImport } from './documents';
import { isNestedDeeperThan, MAX_RECORD_DEPTH, storableText, withStorableText } from './firebase-values';
import { ImportError, ImportStoppedError } from './import-error';
import type { DriverRows } from './records';
import {
  createReport,
  LINKS_SECTION,
  mergeReport,
  note,
  SECTION_KINDS,
  skip,
  STAFF_SECTION,
  type ImportKind,
  type ImportReport,
} from './report';
import { describeFailure, SectionLog, stoppedMessage } from './sections';
import { readAuthExport, StaffImport, storeHashParams, type AuthUser } from './staff';
import { writeCustomers, writeDrivers, writeRates, writeTrips } from './section-writes';

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
  /** Stops the run between two records (Ctrl-C): it ends as a failure does, and says where. */
  signal?: AbortSignal;
};

/**
 * The tables each section writes. When the first is empty (a first import), the section is loaded
 * in one transaction with their secondary indexes dropped before and built once after, as the
 * demo data is: maintaining a trigram index row by row over a million trips costs many times more
 * than building it. A failure or a kill rolls the whole section back, indexes included. The figures
 * kept from these tables (a driver's mandatory documents among them) are computed once after it.
 */
const SECTION_TABLES: Record<string, PgTable[]> = {
  // The vehicles are made from the drivers' car details when the section ends (vehicles_rebuild):
  // their indexes are built after them too.
  driver: [
    drivers,
    driverRatings,
    driverBookingHistory,
    driverWalletEntries,
    driverDocuments,
    vehicles,
    vehicleAssignments,
  ],
  customer: [customers, customerRatings],
  trips: [trips, tripMessages],
};

/** Sections whose batches do not depend on each other (staff nodes are few, and checked one by one). */
const PARALLEL_SECTIONS = new Set(['driver', 'customer', 'trips']);

const SECTIONS = new Set(['city_dealer', 'franchise', 'driver', 'customer', 'trips', 'state']);
class DryRunRollback extends Error {}

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
 *
 * Each batch is one transaction (a section loaded in bulk, one for the whole section). A run that
 * fails once writing has started throws an ImportStoppedError whose report says which sections
 * were committed, with their counts, which one failed and what of it stays, and which were not
 * reached; running the same export again completes the import, since what was committed is found
 * by its keys.
 */
export async function importFirebase(db: Db, options: ImportOptions): Promise<ImportReport> {
  const report = createReport(options.dryRun);
  const started = performance.now();
  if (!(await startsAsObject(options.database))) {
    throw new ImportError(`${options.database} is not a Realtime Database export (a JSON object).`);
  }
  // A file cut short, or with more after its end, would import what it holds and say nothing.
  let sections: ExportSection[];
  try {
    sections = await checkDatabaseExport(options.database);
  } catch (error) {
    if (!(error instanceof ExportStructureError)) throw error;
    throw new ImportError(
      `${options.database} is not a whole export, ${error.message}. Nothing was imported.`,
      { cause: error },
    );
  }
  const users = options.auth ? await readUsers(options.auth, report) : new Map<string, AuthUser>();
  const staffUsers = [...users.values()].filter((user) => user.role).length;
  const log = new SectionLog(report, [
    { section: STAFF_SECTION, records: staffUsers },
    ...sections
      .filter((section) => SECTIONS.has(section.name))
      .map((section) => ({ section: section.name, records: section.records })),
    { section: LINKS_SECTION, records: 0 },
  ]);
  try {
    if (!options.dryRun) {
      await new Importer(db, options, report, users, log).run();
    } else {
      try {
        await db.transaction(async (tx) => {
          await new Importer(tx as unknown as Db, options, report, users, log).run();
          throw new DryRunRollback();
        });
      } catch (error) {
        if (!(error instanceof DryRunRollback)) throw error;
      }
    }
  } catch (error) {
    const { reason, expected } = describeFailure(error);
    log.stop(reason);
    report.seconds = (performance.now() - started) / 1000;
    throw new ImportStoppedError(stoppedMessage(report), report, expected, { cause: error });
  }
  log.finish();
  report.seconds = (performance.now() - started) / 1000;
  return report;
}

/** The Authentication export's users; a file that is not one is refused before anything is written. */
async function readUsers(path: string, report: ImportReport): Promise<Map<string, AuthUser>> {
  try {
    return await readAuthExport(path, report);
  } catch (error) {
    const problem = describeFailure(error).reason;
    throw new ImportError(`${path} is not an Authentication export (${problem}). Nothing was imported.`, {
      cause: error,
    });
  }
}

/** Records read and not written yet, with the report of what reading and writing them found. */
type Batch = {
  section: string;
  records: { key: string; value: unknown }[];
  /** Counts and notes of this batch alone: they join the run's report once its writes are committed. */
  report: ImportReport;
};

class Importer {
  private staff!: StaffImport;
  private readonly documents: DocumentImport | null;
  /** The writes under way: the next batch is read while they run. */
  private readonly writing = new Set<Promise<void>>();
  /**
   * The first write that failed. A write leaves `writing` once it settles, so one that failed
   * before anyone awaited it would otherwise be lost, and the run would end as if it had succeeded.
   */
  private failed: { error: unknown } | null = null;
  private batch: Batch;
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
    private readonly log: SectionLog,
  ) {
    this.batchSize = options.batchSize ?? 2500;
    this.parallel = options.parallelWrites ?? 1;
    this.batch = this.newBatch('');
    this.documents = options.storage
      ? new DocumentImport({
          storage: options.storage,
          objectStore: options.objectStore,
          dryRun: options.dryRun,
        })
      : null;
  }

  async run(): Promise<void> {
    const { options } = this;
    await this.step(STAFF_SECTION, async (db, report) => {
      const hashParamsId = options.hashParams
        ? await storeHashParams(db, options.hashParams, options.jwtSecret)
        : null;
      this.staff = new StaffImport(this.users, hashParamsId);
      await this.staff.importAuthUsers(db, report);
    });

    // Other nodes (leftovers such as active_driver and refers) hold nothing the console keeps.
    const reading = readDatabaseExport(options.database, (section) => SECTIONS.has(section));
    try {
      await this.readAll(reading);
    } catch (error) {
      await Promise.allSettled(this.writing);
      const bulk = this.bulk;
      this.bulk = null;
      await bulk?.finish(error);
      throw error;
    }
    await this.step(LINKS_SECTION, (db, report) => this.staff.linkFranchises(db, report));
  }

  /** A part of the run written in one transaction of its own. */
  private async step(section: string, work: (db: Db, report: ImportReport) => Promise<void>): Promise<void> {
    this.options.signal?.throwIfAborted();
    this.log.start(section);
    this.log.writtenWhole();
    const batch = this.newBatch(section);
    await this.inTransaction((db) => work(db, batch.report));
    mergeReport(this.report, batch.report);
    this.log.commit();
  }

  private newBatch(section: string): Batch {
    return { section, records: [], report: createReport(this.options.dryRun) };
  }

  private async readAll(reading: ExportReading): Promise<void> {
    for await (const record of reading.records) {
      this.options.signal?.throwIfAborted();
      if (record.section !== this.section) {
        await this.submit(reading.bytesRead(), reading.size);
        await this.endSection();
        await this.startSection(record.section);
      } else if (this.batch.records.length >= this.currentBatchSize()) {
        await this.submit(reading.bytesRead(), reading.size);
      }
      const { report } = this.batch;
      const kind = kindOfSection(record.section);
      if ('damaged' in record) {
        skip(report, kind, record.key, record.damaged);
        continue;
      }
      // Text PostgreSQL cannot hold (NUL, half a character) would fail the whole batch: a key
      // holding it cannot be kept as the record's key, a value holding it is stored without it.
      if (textProblem(record.key)) {
        skip(report, kind, storableText(record.key), `its key ${textProblem(record.key)!.toLowerCase()}`);
        continue;
      }
      if (isNestedDeeperThan(record.value, MAX_RECORD_DEPTH)) {
        skip(
          report,
          kind,
          record.key,
          `nested deeper than ${MAX_RECORD_DEPTH} levels, which no export holds`,
        );
        continue;
      }
      const found = findTextProblem(record.value);
      if (found) {
        note(report, kind, record.key, 'repaired', `${found.field}: ${found.problem} Stored without it.`);
        this.batch.records.push({ ...record, value: withStorableText(record.value) });
        continue;
      }
      this.batch.records.push(record);
    }
    await this.submit(reading.bytesRead(), reading.size);
    await this.endSection();
    this.timeSection('');
  }

  /** Starts a section once the one before is written: trips find the drivers just imported. */
  private async startSection(section: string): Promise<void> {
    this.timeSection(section);
    this.log.start(section);
    this.batch = this.newBatch(section);
    // The planner then finds a trip's driver and customer by index, not by hashing both tables.
    if (section === 'trips') await this.db.execute(sql`analyze drivers, customers`);
    await this.startBulk(section);
    if (this.bulk) this.log.writtenWhole();
  }

  /** Sends the batch read to be written; its records are read, the next batch is read meanwhile. */
  private async submit(read: number, size: number): Promise<void> {
    const batch = this.batch;
    this.batch = this.newBatch(this.section);
    if (batch.records.length === 0) {
      // Records all skipped as they were read: nothing to write, only to say.
      mergeReport(this.report, batch.report);
      return;
    }
    const parallel =
      PARALLEL_SECTIONS.has(batch.section) && !this.options.dryRun && !this.bulk ? this.parallel : 1;
    while (this.writing.size >= parallel) await Promise.race(this.writing);
    this.throwIfFailed();
    this.options.onProgress?.(read, size);
    const write: Promise<void> = this.write(batch).finally(() => this.writing.delete(write));
    // Failures surface at the next wait for the writes; until then they are not "unhandled".
    write.catch((error: unknown) => {
      this.failed ??= { error };
    });
    this.writing.add(write);
  }

  private async drain(): Promise<void> {
    await Promise.all(this.writing);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failed) throw this.failed.error;
  }

  /**
   * Records per write. A bulk load takes bigger batches: its statements are not competing with
   * anyone, and each statement costs the dashboard figures' trigger a fixed few tens of milliseconds.
   */
  private currentBatchSize(): number {
    return this.bulk ? this.batchSize * 4 : this.batchSize;
  }

  /**
   * Waits for the section's writes, then ends its bulk load (building its indexes) if it has one:
   * the section is committed.
   */
  private async endSection(): Promise<void> {
    await this.drain();
    const bulk = this.bulk;
    this.bulk = null;
    await bulk?.finish();
    this.log.commit();
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
        try {
          if (error !== undefined) throw error;
          await done;
        } catch (failure) {
          await done.catch(() => {});
          await this.documents?.rolledBack();
          throw failure;
        }
        this.documents?.committed();
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

  /**
   * Writes a batch in one transaction, then adds what it wrote to the run's report: a batch that
   * fails counts for nothing, as nothing of it stays. A driver's images follow, each written alone.
   */
  private async write(batch: Batch): Promise<void> {
    const { report } = batch;
    let drivers: DriverRows[] = [];
    await this.inTransaction(async (db) => {
      switch (batch.section) {
        case 'city_dealer':
        case 'franchise':
          for (const { key, value } of batch.records) {
            await this.staff.importNode(db, report, batch.section, key, value);
          }
          return;
        case 'driver':
          drivers = await writeDrivers(db, batch);
          return;
        case 'customer':
          return writeCustomers(db, batch);
        case 'trips':
          return writeTrips(db, batch);
        case 'state':
          for (const { key, value } of batch.records) await writeRates(db, report, key, value);
          return;
      }
    });
    mergeReport(this.report, report);
    if (this.documents && drivers.length > 0) {
      const bulk = this.bulk;
      await this.documents.write(bulk?.db ?? this.db, this.report, drivers, Boolean(bulk));
    }
  }

  /** One batch's statements in one transaction (a dry run already runs in one, a bulk load too). */
  private async inTransaction(work: (db: Db) => Promise<void>): Promise<void> {
    if (this.bulk) return work(this.bulk.db);
    if (this.options.dryRun) return work(this.db);
    await this.db.transaction((tx) => work(tx as unknown as Db));
  }
}

function kindOfSection(section: string): ImportKind {
  return SECTION_KINDS[section] ?? 'trips';
}
