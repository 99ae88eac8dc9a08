import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import { numberOf } from '../import/firebase-values';
import { createReport, type ImportReport } from '../import/report';
import { writeCustomers, writeDrivers, writeRates, writeTrips } from '../import/section-writes';

/**
 * What the link applies, with the import's own mapping (import/records.ts, import/section-writes.ts):
 * the same records, keys and rules, so a record followed is the record the import would have
 * written. Writes are keyed by Firebase key: applying a record twice changes nothing the second
 * time, which is what makes a catch-up after a reconnect or a crash safe.
 */

/** The nodes of the apps' tree the link follows, each a kind of record of the console. */
export const FOLLOWED_SECTIONS = ['state', 'driver', 'customer', 'trips'] as const;
export type FollowedSection = (typeof FOLLOWED_SECTIONS)[number];

export type FirebaseRecord = { key: string; value: unknown };

/** Writes records of one section in one transaction; answers what the import's report counts. */
export async function applyRecords(
  db: Db,
  section: FollowedSection,
  records: FirebaseRecord[],
): Promise<ImportReport> {
  const report = createReport(false);
  if (records.length === 0) return report;
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const batch = { records, report };
    switch (section) {
      case 'driver':
        await writeDrivers(tx, batch);
        return;
      case 'customer':
        await writeCustomers(tx, batch);
        return;
      case 'trips':
        await writeTrips(tx, batch);
        return;
      case 'state':
        for (const { key, value } of records) await writeRates(tx, report, key, value);
        return;
    }
  });
  return report;
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
  const rows = rowsOf(
    await db.execute(sql`
      update drivers as d set lat = p.lat, long = p.long, position_at = ${at}::timestamptz
      from json_to_recordset(${JSON.stringify(positions)}::json) as p(key text, lat double precision, long double precision)
      where d.firebase_key = p.key and d.deleted_at is null
      returning d.id, d.lat, d.long, d.position_at`),
  );
  return rows.map((row) => ({
    driverId: String(row.id),
    lat: Number(row.lat),
    long: Number(row.long),
    at: new Date(row.position_at as string).toISOString(),
  }));
}
