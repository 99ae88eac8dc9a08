import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { CarType } from '@bmet/shared/constants';
import { anyOf } from '../../db/any-of';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { type DriverPlacement, type ScopeCaller, driverScope } from '../../lib/scope';
import { accounts, drivers } from '../../db/schema';

/** A car as the fleet map shows it. */
export type FleetRow = {
  id: string;
  name: string;
  lat: number;
  long: number;
  positionAt: Date | null;
  carType: CarType | null;
  franchiseId: string | null;
};

const fleetColumns = {
  id: drivers.id,
  name: drivers.name,
  lat: drivers.lat,
  long: drivers.long,
  positionAt: drivers.positionAt,
  carType: drivers.carType,
  franchiseId: drivers.franchiseId,
};

/**
 * Every driver in the caller's scope with a known position (the fleet map's whole state), or only
 * those whose position is at least as recent as `since`, as the JSON array of `GET /api/fleet`
 * (fleetDriverSchema's seven fields, no other). PostgreSQL writes the JSON: at 100,000 drivers,
 * reading the rows one by one and writing them again took eight times as long (two seconds on
 * the embedded database, with the server's one thread held for all of it).
 */
export async function findFleetJson(
  db: Db,
  user: ScopeCaller,
  options: { since?: Date } = {},
): Promise<string> {
  const result = await db.execute(sql`
    select '[' || coalesce(string_agg(
      '{"id":"' || ${drivers.id} || '","name":' || to_json(${drivers.name}) ||
      ',"lat":' || ${drivers.lat} || ',"long":' || ${drivers.long} ||
      ',"updatedAt":' || coalesce(
        '"' || to_char(${drivers.positionAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"',
        'null') ||
      ',"carType":' || coalesce(to_json(${drivers.carType})::text, 'null') ||
      ',"franchiseId":' || coalesce('"' || ${drivers.franchiseId} || '"', 'null') || '}',
      ','), '') || ']' as fleet
    from ${drivers}
    where ${and(
      driverScope(user),
      isNotNull(drivers.lat),
      isNotNull(drivers.long),
      options.since ? gte(drivers.positionAt, options.since) : undefined,
    )}`);
  return String(rowsOf(result)[0]?.fleet ?? '[]');
}

/** A driver read for the fleet streams: where it is, and where it stands in the hierarchy. */
export type PlacedDriver = Omit<FleetRow, 'lat' | 'long'> &
  DriverPlacement & { lat: number | null; long: number | null };

/**
 * Drivers by id, deleted ones included, with their franchise's dealer, for the fleet streams to
 * decide in memory who may see each (isDriverInScope); ids that do not exist are left out.
 */
export async function findPlacedDrivers(db: Db, ids: readonly string[]): Promise<PlacedDriver[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ ...fleetColumns, dealerId: accounts.dealerId, deletedAt: drivers.deletedAt })
    .from(drivers)
    // The franchise's dealer counts only for an account that is a franchise, as in driverScope.
    .leftJoin(accounts, and(eq(accounts.id, drivers.franchiseId), eq(accounts.role, 'franchise')))
    .where(anyOf(drivers.id, ids, 'uuid'));
  return rows as PlacedDriver[];
}
