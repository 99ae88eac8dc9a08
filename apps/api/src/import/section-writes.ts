/**
 * The writes of a batch of records of each section, on the transaction they are given, counted in
 * the batch's own report: what a record read found (skipped, repaired), and what each statement
 * inserted, updated or left unchanged.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
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
import { countWrite, note, skip, type ImportKind, type ImportReport } from './report';
import { upsertByFirebaseKey, type UpsertSpec } from './upsert';

/** Records of one section, read and not written yet, and the report of what they hold. */
export type RecordBatch = { records: { key: string; value: unknown }[]; report: ImportReport };

export function addFindings(report: ImportReport, kind: ImportKind, findings: Finding[]): void {
  for (const finding of findings) {
    const findingKind = finding.kind ?? kind;
    if (finding.action === 'skipped') skip(report, findingKind, finding.key, finding.reason);
    else note(report, findingKind, finding.key, finding.action, finding.reason);
  }
}

async function upsert(
  db: Db,
  report: ImportReport,
  kind: ImportKind,
  spec: UpsertSpec,
  rows: Record<string, unknown>[],
) {
  const written = await upsertByFirebaseKey(db, spec, rows);
  const required = spec.parents?.find((parent) => parent.required)?.key;
  const orphans = required ? (written.missing.get(required) ?? new Set<string>()) : new Set<string>();
  for (const key of orphans) skip(report, kind, key, 'its parent record was not imported');
  const keys = [...new Set(rows.map((row) => String(row.firebase_key)))].filter((key) => !orphans.has(key));
  countWrite(report, kind, keys, written);
  return written;
}

/** Writes a batch of drivers and what they hold; answers them, for their images. */
export async function writeDrivers(db: Db, batch: RecordBatch): Promise<DriverRows[]> {
  const { report } = batch;
  const read: DriverRows[] = [];
  for (const { key, value } of batch.records) {
    const rows = readDriver(key, value);
    if ('action' in rows) addFindings(report, 'drivers', [rows]);
    else {
      addFindings(report, 'drivers', rows.findings);
      read.push(rows);
    }
  }
  await upsert(
    db,
    report,
    'drivers',
    DRIVER_SPEC,
    read.map((rows) => rows.driver),
  );
  await upsert(
    db,
    report,
    'ratings',
    DRIVER_RATING_SPEC,
    read.flatMap((rows) => rows.ratings),
  );
  await upsert(
    db,
    report,
    'bookingHistory',
    HISTORY_SPEC,
    read.flatMap((rows) => rows.history),
  );
  await upsert(
    db,
    report,
    'walletEntries',
    WALLET_SPEC,
    read.flatMap((rows) => rows.wallet),
  );
  return read;
}

export async function writeCustomers(db: Db, batch: RecordBatch): Promise<void> {
  const { report } = batch;
  const customers: Record<string, unknown>[] = [];
  const ratings: Record<string, unknown>[] = [];
  for (const { key, value } of batch.records) {
    const rows = readCustomer(key, value);
    if ('action' in rows) addFindings(report, 'customers', [rows]);
    else {
      addFindings(report, 'customers', rows.findings);
      customers.push(rows.customer);
      ratings.push(...rows.ratings);
    }
  }
  await upsert(db, report, 'customers', CUSTOMER_SPEC, customers);
  await upsert(db, report, 'ratings', CUSTOMER_RATING_SPEC, ratings);
}

export async function writeTrips(db: Db, batch: RecordBatch): Promise<void> {
  const { report } = batch;
  const trips: Record<string, unknown>[] = [];
  const messages: Record<string, unknown>[] = [];
  for (const { key, value } of batch.records) {
    const rows = readTrip(key, value);
    if ('action' in rows) addFindings(report, 'trips', [rows]);
    else {
      addFindings(report, 'trips', rows.findings);
      trips.push(rows.trip);
      messages.push(...rows.messages);
    }
  }
  const written = await upsert(db, report, 'trips', TRIP_SPEC, trips);
  const byKey = new Map(trips.map((trip) => [String(trip.firebase_key), trip]));
  for (const [field, keys] of written.missing) {
    const what = field === 'driver_key' ? 'driver' : 'customer';
    for (const key of keys) {
      const parent = String(byKey.get(key)?.[field]);
      note(report, 'trips', key, 'repaired', `its ${what} ${parent} does not exist: kept without one`);
    }
  }
  await upsert(db, report, 'tripMessages', MESSAGE_SPEC, messages);
}

/** One state's rates, keyed by state and car type. */
export async function writeRates(db: Db, report: ImportReport, key: string, value: unknown): Promise<void> {
  const read = readRates(key, value);
  if ('action' in read) return addFindings(report, 'rates', [read]);
  addFindings(report, 'rates', read.findings);
  if (read.rows.length === 0) return;
  const answer = rowsOf(
    await db.execute(sql`
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
    report,
    'rates',
    read.rows.map((row) => `${String(row.state)}/${String(row.car_type)}`),
    { inserted, updated },
  );
}
