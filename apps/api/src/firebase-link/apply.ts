import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { retryOnDeadlock } from '../db/retry-on-deadlock';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import { numberOf } from '../import/firebase-values';
import { createReport, type ImportReport } from '../import/report';
import { addFindings, writeCustomers, writeDrivers, writeTrips } from '../import/section-writes';
import { readRates } from '../import/records';
import { StaffImport } from '../import/staff';
import { applyFirebaseRateSet } from '../modules/car-rates/repository';
import { RATE_FIELDS, type CarType, type State } from '@bmet/shared/constants';
import { FIREBASE_LINK_KINDS, type FirebaseLinkKind } from '@bmet/shared/firebase-link-kinds';
import type { RateValues } from '@bmet/shared/schemas/car-rate';
import { AUDITED, auditChanges, removeRecords, snapshotOf } from './changes';
import { classifyIncoming } from './outbox';

/**
 * What the link applies, with the import's own mapping (import/records.ts, import/section-writes.ts):
 * the same records, keys and rules, so a record followed is the record the import would have
 * written. Writes are keyed by Firebase key: applying a record twice changes nothing the second
 * time, which is what makes a catch-up after a reconnect or a crash safe.
 */

/**
 * The nodes of the apps' tree the link follows, each a kind of record of the console. Dealers come
 * before franchises, and drivers and customers before the trips that name them.
 */
export const FOLLOWED_SECTIONS = FIREBASE_LINK_KINDS;
export type FollowedSection = FirebaseLinkKind;

export type FirebaseRecord = { key: string; value: unknown };

/**
 * Writes records of one section in one transaction, audited as changes made by Firebase; a record
 * whose value is null was removed there and is ended (changes.ts). Answers what the import's report
 * counts, and how many records were ended. `live`: the records arrived as changes (a record new to
 * the console is audited as created), not as a whole node read at a start or a re-read.
 * `known: false`: the console holds no record of the section from Firebase (nothing to compare).
 */
export async function applyRecords(
  db: Db,
  section: FollowedSection,
  records: FirebaseRecord[],
  { live = true, known = true }: { live?: boolean; known?: boolean } = {},
): Promise<{ report: ImportReport; removed: number }> {
  const report = createReport(false);
  let removed = 0;
  if (records.length === 0) return { report, removed };
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    if (section === 'city_dealer' || section === 'franchise') {
      removed = await applyStaff(tx, report, section, records);
      return;
    }
    const present = records.filter((record) => record.value !== null);
    // A state's rates removed in Firebase stay: the console's last rates are still its rates.
    if (section !== 'state') {
      const gone = records.filter((record) => record.value === null).map((record) => record.key);
      removed = await removeRecords(tx, section, gone);
    }
    const audited = AUDITED[section];
    const keys = present.map((record) => record.key);
    // A first start, when the console holds none of the section yet: nothing was before.
    const before = audited && known ? await snapshotOf(tx, audited, keys) : null;
    const batch = { records: present, report };
    switch (section) {
      case 'driver':
        await writeDrivers(tx, batch);
        break;
      case 'customer':
        await writeCustomers(tx, batch);
        break;
      case 'trips':
        await writeTrips(tx, batch);
        break;
      case 'state':
        for (const { key, value } of present) await applyRates(tx, report, key, value);
        break;
    }
    // Records all new to the console, brought in by a sync: nothing to audit (no creation is).
    if (audited && before && (live || before.size > 0)) {
      await auditChanges(tx, audited, before, await snapshotOf(tx, audited, keys), { creations: live });
    }
  });
  return { report, removed };
}

/**
 * City dealers and franchises: a node that is the console's own write coming back, or one the
 * console has a write for on its way, is left; others are followed (import/staff.ts), or ended
 * when removed. Accounts the link creates have no password: the report lists them for a reset link.
 */
async function applyStaff(
  tx: Db,
  report: ImportReport,
  section: 'city_dealer' | 'franchise',
  records: FirebaseRecord[],
): Promise<number> {
  const staff = new StaffImport(new Map(), null, true);
  const gone: string[] = [];
  for (const { key, value } of records) {
    if ((await classifyIncoming(tx, `${section}/${key}`, value)) !== 'apply') {
      report.counts[section === 'city_dealer' ? 'dealers' : 'franchises'].unchanged++;
    } else if (value === null) gone.push(key);
    else await staff.importNode(tx, report, section, key, value);
  }
  await staff.linkFranchises(tx, report);
  return removeRecords(tx, section, gone);
}

/**
 * A state's rates as Firebase holds them: each car type's set that differs from the console's is a
 * new version attributed to Firebase, unless it is the console's own write coming back or the
 * console has a newer one on its way.
 */
async function applyRates(tx: Db, report: ImportReport, key: string, value: unknown): Promise<void> {
  const read = readRates(key, value);
  if ('action' in read) return addFindings(report, 'rates', [read]);
  addFindings(report, 'rates', read.findings);
  for (const row of read.rows) {
    const state = row.state as State;
    const carType = row.car_type as CarType;
    const raw = (value as Record<string, unknown>)[
      Object.keys(value as object).find((type) => type.trim().toLowerCase() === carType)!
    ];
    const counts = report.counts.rates;
    if ((await classifyIncoming(tx, `state/${state}/${carType}`, raw)) !== 'apply') {
      counts.unchanged++;
      continue;
    }
    const values = Object.fromEntries(RATE_FIELDS.map((field) => [field, row[field] ?? null])) as RateValues;
    counts[await applyFirebaseRateSet(tx, state, carType, values)]++;
  }
}

/** Whether the console holds any record of this section from Firebase (false: a first start). */
export async function holdsAny(db: Db, section: FollowedSection): Promise<boolean> {
  const audited = AUDITED[section];
  if (!audited) return true;
  const rows = rowsOf(
    await db.execute(
      sql`select exists (select 1 from ${sql.identifier(audited.table)} where firebase_key is not null) as held`,
    ),
  );
  return rows[0]?.held === true;
}

/** A driver's position as the driver app writes it (`driver/{uid}/position: {lat, long}`), or null. */
export function positionOf(value: unknown): { lat: number; long: number } | null {
  if (!value || typeof value !== 'object') return null;
  const { lat, long } = value as { lat?: unknown; long?: unknown };
  const latitude = numberOf(lat);
  const longitude = numberOf(long);
  if (latitude === null || longitude === null) return null;
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null;
  return { lat: latitude, long: longitude };
}

/**
 * Stores the positions the driver app wrote, as a device report stores one, and answers the events
 * to publish (the fleet map, the driver dashboard and "active now" on every instance).
 */
export async function storePositions(
  db: Db,
  positions: { key: string; lat: number; long: number }[],
): Promise<LocationEvent[]> {
  if (positions.length === 0) return [];
  const at = new Date().toISOString();
  // A batch takes many drivers' rows in no set order, beside statements that take some of the
  // same (a review's triggers, a device report): when the database ends a deadlock by failing the
  // batch, it is tried again, as device reports are.
  const rows = await retryOnDeadlock(async () =>
    rowsOf(
      await db.execute(sql`
      update drivers as d set lat = p.lat, long = p.long, position_at = ${at}::timestamptz
      from json_to_recordset(${JSON.stringify(positions)}::json) as p(key text, lat double precision, long double precision)
      where d.firebase_key = p.key and d.deleted_at is null
      returning d.id, d.lat, d.long, d.position_at`),
    ),
  );
  return rows.map((row) => ({
    driverId: String(row.id),
    lat: Number(row.lat),
    long: Number(row.long),
    at: new Date(row.position_at as string).toISOString(),
  }));
}
