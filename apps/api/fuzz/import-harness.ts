import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { emailSchema } from '@bmet/shared/schemas/common';
import { openDatabase, type Database, type Db } from '../src/db/client';
import { rowsOf } from '../src/db/rows';
import { createLocalObjectStore } from '../src/infra/object-store';
import { ImportError, ImportStoppedError } from '../src/import/import-error';
import { importFirebase } from '../src/import/import-firebase';
import { IMPORT_KINDS, type ImportKind, type ImportReport } from '../src/import/report';
import type { HostileExport } from './export-arbitraries';

/**
 * The judge of the import's fuzz property. An import of any export either imports it, with a report
 * that tells the truth, or refuses it whole before writing anything; it never stops halfway.
 * After an import the database is consistent: each kind grew by the rows its report calls new, the
 * figures kept from the rows equal those computed afresh, no image was read from outside the
 * storage copy, every account's email is one, and the same export run again creates nothing.
 */

const JWT_SECRET = 'fuzz-only-jwt-secret-0123456789abcdefghijkl';

/** The tables each kind the report counts writes (rows with a Firebase key, for those that have one). */
const KIND_TABLES: Partial<Record<ImportKind, string[]>> = {
  staffAccounts: ['accounts'],
  drivers: ['drivers'],
  documents: ['driver_documents'],
  ratings: ['driver_ratings', 'customer_ratings'],
  bookingHistory: ['driver_booking_history'],
  walletEntries: ['driver_wallet_entries'],
  customers: ['customers'],
  trips: ['trips'],
  tripMessages: ['trip_messages'],
  rates: ['car_rates'],
};
/** Counted together: the three kinds of staff are rows of one table. */
const ACCOUNT_KINDS: ImportKind[] = ['staffAccounts', 'dealers', 'franchises'];
const KEYED = new Set(['accounts', 'drivers', 'customers', 'trips']);

/** The figures triggers keep, each as a query of its non-empty rows, and the functions that rebuild them. */
const FIGURES = [
  // Totals compared by value: a kept sum carries the largest scale any value added to it ever had
  // (250.000… after a trip's distance was corrected from a value written with many decimals).
  `select day, franchise_id, state, car_type, status, cancel_reason, trips, trim_scale(fare_total) as fare_total,
     fare_trips, trim_scale(distance_total) as distance_total, distance_trips from trip_daily_stats
   where trips <> 0 or fare_total <> 0 or fare_trips <> 0 or distance_total <> 0 or distance_trips <> 0`,
  `select day, hour, franchise_id, trips from trip_hourly_stats where trips <> 0`,
  `select franchise_id, deleted, drivers from driver_counts where drivers <> 0`,
  `select rows from list_counts where list = 'customers'`,
  `select driver_id, documents::text from driver_mandatory_documents`,
  `select id, documents_awaiting_review, rating_total, rating_count from drivers`,
];
const REBUILDS = [
  'trip_stats_rebuild',
  'documents_awaiting_review_rebuild',
  'driver_mandatory_documents_rebuild',
  'driver_counts_rebuild',
  'driver_rating_rebuild',
  'customer_count_rebuild',
];

export type ImportVerdict = {
  export: HostileExport;
  outcome: 'imported' | 'refused' | 'stopped';
  /** The report of the import, when it finished. */
  report?: ImportReport;
  /** What is wrong; empty when the import behaved. */
  problems: string[];
};

export type ImportFuzzWorld = {
  run(hostile: HostileExport): Promise<ImportVerdict>;
  close(): Promise<void>;
};

async function countRows(db: Db): Promise<Record<string, number>> {
  const tables = [...new Set(Object.values(KIND_TABLES).flat())];
  const parts = tables.map((table) =>
    KEYED.has(table)
      ? `select '${table}' as t, count(*)::int as n from ${table} where firebase_key is not null`
      : `select '${table}' as t, count(*)::int as n from ${table}`,
  );
  const rows = rowsOf(await db.execute(sql.raw(parts.join(' union all '))));
  return Object.fromEntries(rows.map((row) => [String(row.t), Number(row.n)]));
}

/** A digest of every row the import may write, to see whether a refused import changed any. */
async function digest(db: Db): Promise<string> {
  const tables = [...new Set(Object.values(KIND_TABLES).flat()), 'firebase_hash_params'];
  const parts = tables.map(
    (table) => `select '${table}' as t, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as d
      from ${table} x`,
  );
  const rows = rowsOf(await db.execute(sql.raw(parts.join(' union all '))));
  return rows.map((row) => `${String(row.t)}:${String(row.d)}`).join(' ');
}

async function figuresOf(db: Db): Promise<string[]> {
  const figures: string[] = [];
  for (const query of FIGURES) {
    const rows = rowsOf(await db.execute(sql.raw(query)));
    figures.push(
      rows
        .map((row) => JSON.stringify(row))
        .sort()
        .join('\n'),
    );
  }
  return figures;
}

class Rollback extends Error {}

/** The figures as the triggers left them, against the figures computed from the rows (then undone). */
async function checkFigures(db: Db): Promise<string[]> {
  const kept = await figuresOf(db);
  let rebuilt: string[] = [];
  await db
    .transaction(async (tx) => {
      for (const rebuild of REBUILDS) await tx.execute(sql.raw(`select ${rebuild}()`));
      rebuilt = await figuresOf(tx as unknown as Db);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return kept.flatMap((figure, index) =>
    figure === rebuilt[index] ? [] : [`figures kept differ from the rows: ${FIGURES[index]!.slice(0, 60)}`],
  );
}

/** Rows added per table against the report's new counts. */
function checkCounts(report: ImportReport, before: Record<string, number>, after: Record<string, number>) {
  const problems: string[] = [];
  const added = (tables: string[]) => tables.reduce((sum, table) => sum + after[table]! - before[table]!, 0);
  for (const kind of IMPORT_KINDS) {
    const tables = KIND_TABLES[kind];
    if (!tables || kind === 'staffAccounts') continue;
    const grew = added(tables);
    if (grew !== report.counts[kind].new)
      problems.push(`${kind}: ${grew} rows added, report says ${report.counts[kind].new} new`);
  }
  const accounts = ACCOUNT_KINDS.reduce((sum, kind) => sum + report.counts[kind].new, 0);
  if (added(['accounts']) !== accounts)
    problems.push(`accounts: ${added(['accounts'])} rows added, report says ${accounts} new`);
  return problems;
}

/**
 * Builds the world: a database of its own (in memory unless a URL is given, then shared with what
 * else uses it: only rows with Firebase keys are ever cleared), and a storage copy with one good
 * image, one damaged, a link to another driver's folder and an image beside it, outside.
 */
export async function createImportFuzzWorld(
  options: { databaseUrl?: string } = {},
): Promise<ImportFuzzWorld> {
  const root = mkdtempSync(join(tmpdir(), 'bmet-import-fuzz-'));
  const storage = join(root, 'storage');
  const photo = await sharp({ create: { width: 32, height: 24, channels: 3, background: '#3366aa' } })
    .jpeg()
    .toBuffer();
  mkdirSync(join(storage, 'images', 'drvA'), { recursive: true });
  mkdirSync(join(storage, 'images', 'drvB'), { recursive: true });
  mkdirSync(join(root, 'outside'), { recursive: true });
  writeFileSync(join(storage, 'images', 'drvA', 'aadharCard.jpg'), photo);
  writeFileSync(join(storage, 'images', 'drvB', 'panCard.jpg'), Buffer.from('not a jpeg'));
  writeFileSync(join(root, 'outside', 'aadharCard.jpg'), photo);
  symlinkSync(join(storage, 'images', 'drvA'), join(storage, 'images', 'drvLink'));

  const database: Database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: 'memory://' });
  const { db } = database;
  const objectStore = createLocalObjectStore(join(root, 'objects'));
  let files = 0;

  async function clearImported(): Promise<void> {
    await db.execute(sql`delete from trips where firebase_key is not null`);
    await db.execute(sql`delete from customers where firebase_key is not null`);
    await db.execute(sql`delete from drivers where firebase_key is not null`);
    await db.execute(sql`update accounts set dealer_id = null where firebase_key is not null`);
    await db.execute(sql`delete from accounts where firebase_key is not null`);
  }

  async function importOnce(hostile: HostileExport) {
    const name = `export-${++files}`;
    const path = join(root, `${name}.json`);
    writeFileSync(path, hostile.database);
    let auth: string | undefined;
    if (hostile.auth) {
      auth = join(root, `${name}-users.json`);
      writeFileSync(auth, hostile.auth);
    }
    return importFirebase(db, {
      database: path,
      auth,
      storage,
      dryRun: hostile.dryRun,
      jwtSecret: JWT_SECRET,
      objectStore,
      batchSize: hostile.batchSize,
      parallelWrites: database.kind === 'postgres' ? 2 : 1,
    });
  }

  async function judge(hostile: HostileExport, report: ImportReport, before: Record<string, number>) {
    const problems: string[] = [];
    const after = await countRows(db);
    if (report.stopped || report.sections.some((entry) => entry.state !== 'committed')) {
      problems.push('a run that finished reports a section not committed');
    }
    if (hostile.dryRun) {
      if (JSON.stringify(after) !== JSON.stringify(before)) problems.push('a dry run changed the tables');
      return problems;
    }
    problems.push(...checkCounts(report, before, after));
    problems.push(...(await checkFigures(db)));
    const [outside] = rowsOf(
      await db.execute(sql`select count(*)::int as n from driver_documents x join drivers d on d.id = x.driver_id
        where x.object_key is not null and d.firebase_key is distinct from 'drvA'`),
    );
    if (Number(outside!.n) > 0)
      problems.push('an image was read for a driver with no plain folder of its own');
    const emails = rowsOf(await db.execute(sql`select email from accounts where firebase_key is not null`));
    for (const { email } of emails) {
      if (!emailSchema.safeParse(email).success) problems.push(`an account was made for "${String(email)}"`);
    }
    // The same export again: nothing new, nothing more.
    const again = await importOnce(hostile);
    const newAgain = IMPORT_KINDS.filter((kind) => again.counts[kind].new > 0);
    if (newAgain.length) problems.push(`a second run made new ${newAgain.join(', ')}`);
    if (JSON.stringify(await countRows(db)) !== JSON.stringify(after))
      problems.push('a second run added rows');
    return problems;
  }

  return {
    async run(hostile) {
      if (hostile.fresh) await clearImported();
      const before = await countRows(db);
      const rowsBefore = await digest(db);
      try {
        const report = await importOnce(hostile);
        return {
          export: hostile,
          outcome: 'imported',
          report,
          problems: await judge(hostile, report, before),
        };
      } catch (error) {
        if (error instanceof ImportStoppedError) {
          const where = `${error.message}${error.expected ? '' : `\n${String((error.cause as Error)?.stack)}`}`;
          return { export: hostile, outcome: 'stopped', problems: [`the import stopped halfway: ${where}`] };
        }
        if (error instanceof ImportError) {
          const unchanged = (await digest(db)) === rowsBefore;
          return {
            export: hostile,
            outcome: 'refused',
            problems: unchanged ? [] : [`a refused import changed the tables (${error.message})`],
          };
        }
        return {
          export: hostile,
          outcome: 'stopped',
          problems: [
            `unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          ],
        };
      }
    },
    async close() {
      await database.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A failing import in a few lines: what went wrong, and the export. */
export function describeImportVerdict(verdict: ImportVerdict): string {
  return `${verdict.outcome}: ${verdict.problems.join('; ')}\n${verdict.export.summary}`;
}
