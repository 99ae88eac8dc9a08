import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import { anyOf } from '../../db/any-of';
import type { Db, DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { isPostgresServer } from '../../db/row-reader';
import { retryOnDeadlock } from '../../db/retry-on-deadlock';
import { driverScope, isDriverInScope } from '../../lib/scope';
import { accounts, driverDeviceTokens, drivers, sessions } from '../../db/schema';
import type { SessionUser } from '../../plugins/authentication';

/** A driver the caller may see, with its position; null outside the caller's scope. */
export async function findVisibleDriver(db: Db, user: Pick<SessionUser, 'id' | 'role'>, driverId: string) {
  const [row] = await db
    .select({
      id: drivers.id,
      name: drivers.name,
      email: drivers.email,
      phoneNumber: drivers.phoneNumber,
      lat: drivers.lat,
      long: drivers.long,
      positionAt: drivers.positionAt,
    })
    .from(drivers)
    .where(and(eq(drivers.id, driverId), driverScope(user)))
    .limit(1);
  return row ?? null;
}

/** A live stream of one driver, as its backstop check knows it. */
export type StreamAccess = { sessionId: string; accountId: string; driverId: string };

/**
 * For many open streams at once, whether each may go on: its session still active (not revoked,
 * not expired, its account neither disabled nor deleted) and its driver still in that account's
 * scope (isDriverInScope, the rule of driverScope, on the account as it is now). One query for
 * the checks of one moment: 2,000 dashboards checked every 20 seconds as two queries each held up
 * drivers' position reports behind them.
 */
export async function findStreamAccess(db: Db, checks: StreamAccess[]): Promise<boolean[]> {
  if (checks.length === 0) return [];
  const values = checks.map((check, i) => ({
    i,
    session_id: check.sessionId,
    account_id: check.accountId,
    driver_id: check.driverId,
  }));
  const rows = rowsOf(
    await db.execute(sql`
    select c.i, a.id as account_id, a.role, d.franchise_id, f.dealer_id, d.deleted_at
    from json_to_recordset(${JSON.stringify(values)}::json)
      as c(i int, session_id uuid, account_id uuid, driver_id uuid)
    join ${sessions} as s on s.id = c.session_id and s.account_id = c.account_id
      and s.revoked_at is null and s.expires_at > now()
    join ${accounts} as a on a.id = s.account_id and not a.disabled and a.deleted_at is null
    join ${drivers} as d on d.id = c.driver_id
    -- The franchise's dealer counts only for an account that is a franchise, as in driverScope.
    left join ${accounts} as f on f.id = d.franchise_id and f.role = 'franchise'`),
  );
  const allowed = new Set(
    rows
      .filter((row) =>
        isDriverInScope(
          { id: String(row.account_id), role: row.role as Role },
          {
            franchiseId: row.franchise_id === null ? null : String(row.franchise_id),
            dealerId: row.dealer_id === null ? null : String(row.dealer_id),
            deletedAt: row.deleted_at === null ? null : new Date(row.deleted_at as string | Date),
          },
        ),
      )
      .map((row) => Number(row.i)),
  );
  return checks.map((_, i) => allowed.has(i));
}

const deviceTokenColumns = {
  id: driverDeviceTokens.id,
  label: driverDeviceTokens.label,
  createdAt: driverDeviceTokens.createdAt,
  lastUsedAt: driverDeviceTokens.lastUsedAt,
  revokedAt: driverDeviceTokens.revokedAt,
};
export type DeviceTokenRow = {
  id: string;
  label: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/** A driver's device tokens, newest first, revoked ones included; never the hash. */
export async function findDeviceTokens(db: Db, driverId: string): Promise<DeviceTokenRow[]> {
  return db
    .select(deviceTokenColumns)
    .from(driverDeviceTokens)
    .where(eq(driverDeviceTokens.driverId, driverId))
    .orderBy(desc(driverDeviceTokens.createdAt), desc(driverDeviceTokens.id));
}

/** A driver's token, locked until the transaction ends (a revocation is recorded once). */
export async function findDeviceTokenForUpdate(db: DbExecutor, driverId: string, tokenId: string) {
  const [row] = await db
    .select(deviceTokenColumns)
    .from(driverDeviceTokens)
    .where(and(eq(driverDeviceTokens.id, tokenId), eq(driverDeviceTokens.driverId, driverId)))
    .limit(1)
    .for('update');
  return row ?? null;
}

export async function insertDeviceToken(
  db: DbExecutor,
  input: { driverId: string; tokenHash: string; label: string; createdBy: string },
): Promise<DeviceTokenRow> {
  const [row] = await db.insert(driverDeviceTokens).values(input).returning(deviceTokenColumns);
  return row!;
}

/** Revokes a token of a driver; answers the row as it now is (an earlier revocation is kept). */
export async function revokeDeviceToken(db: DbExecutor, driverId: string, tokenId: string) {
  const [row] = await db
    .update(driverDeviceTokens)
    .set({ revokedAt: sql`coalesce(${driverDeviceTokens.revokedAt}, now())` })
    .where(and(eq(driverDeviceTokens.id, tokenId), eq(driverDeviceTokens.driverId, driverId)))
    .returning(deviceTokenColumns);
  return row ?? null;
}

/** A device token as the driver-app endpoint knows it. */
export type ActiveDevice = { tokenId: string; driverId: string };

/**
 * The active devices of many token hashes in one query (the driver-app endpoint looks them up
 * together, see routes.ts): revoked tokens and deleted drivers have none.
 */
export async function findActiveDevices(db: Db, tokenHashes: string[]): Promise<Map<string, ActiveDevice>> {
  const rows = await db
    .select({
      tokenHash: driverDeviceTokens.tokenHash,
      tokenId: driverDeviceTokens.id,
      driverId: driverDeviceTokens.driverId,
    })
    .from(driverDeviceTokens)
    .innerJoin(drivers, eq(drivers.id, driverDeviceTokens.driverId))
    .where(
      and(
        anyOf(driverDeviceTokens.tokenHash, tokenHashes, 'text'),
        isNull(driverDeviceTokens.revokedAt),
        isNull(drivers.deletedAt),
      ),
    );
  return new Map(rows.map((row) => [row.tokenHash, { tokenId: row.tokenId, driverId: row.driverId }]));
}

export type PositionReport = { driverId: string; tokenId: string; lat: number; long: number; at: Date };
export type StoredPosition = { lat: number; long: number; positionAt: Date };
/**
 * What became of a report: its device still active (not revoked, its driver not deleted) with
 * the position stored, or null when it was not (older than the driver's, or superseded in the
 * same batch); or its device no longer active, and nothing stored.
 */
export type RecordedPosition = { active: true; position: StoredPosition | null } | { active: false };

/**
 * Stores many reported positions at once: of each driver's reports from devices still active (not
 * revoked, the driver not deleted), the newest, unless the driver already has a newer position (a
 * late or replayed report never moves a driver back in time); and the use of the devices in
 * `touch`. Answers what became of each report (RecordedPosition). Whether a device is still
 * active is read by the same statement, as of its start: the endpoint may have found the device
 * in its memory, not in the database, and a report of a device revoked since must neither be
 * stored nor keep another device's report of the same driver from being stored.
 *
 * One statement, committed on its own: the positions, the devices' last use and (on a server) the
 * commit's durability travel in one round trip. As a transaction of three or four statements,
 * each waited for the server's event loop between them while holding the drivers' rows.
 *
 * On a PostgreSQL server, committed without waiting for the WAL to reach the disk (decision 022):
 * the position is stored and visible to every reader at once, and only a crash of the database
 * server itself within a fraction of a second could lose it, when the phone reports again seconds
 * later. Waiting for the disk stalled every report of a moment behind the flush: a report p99 of
 * 734 ms against 132 ms at 2,000 reports a second. Not on the embedded database: it has no WAL
 * writer to write such a commit out later, so a crash of the server's process could lose every
 * position since the last other write. The setting is local to the statement's own transaction:
 * this must not run inside another transaction.
 */
export async function recordPositions(
  db: Db,
  reports: PositionReport[],
  touch: string[] = [],
): Promise<RecordedPosition[]> {
  const values = reports.map((report, i) => ({
    report: i,
    id: report.driverId,
    token_id: report.tokenId,
    lat: report.lat,
    long: report.long,
    at: report.at.toISOString(),
  }));
  const durability = isPostgresServer(db)
    ? sql`, (select set_config('synchronous_commit', 'off', true)) as durability`
    : sql``;
  const touchDevices =
    touch.length > 0
      ? sql`touched as (
          update ${driverDeviceTokens} as t set last_used_at = ${new Date().toISOString()}::timestamptz
          -- Only devices still active, as the reports found them.
          where ${anyOf(sql`t.id`, touch, 'uuid')} and t.id in (select token_id from reports where active)
        ),`
      : sql``;
  const rows = await retryOnDeadlock(async () =>
    rowsOf(
      await db.execute(sql`
      with reports as (
        select r.*, exists (
          select 1 from ${driverDeviceTokens} as t join ${drivers} as td on td.id = t.driver_id
          where t.id = r.token_id and t.driver_id = r.id and t.revoked_at is null and td.deleted_at is null
        ) as active
        from json_to_recordset(${JSON.stringify(values)}::json) as r(
          report int, id uuid, token_id uuid, lat double precision, long double precision, at timestamptz)
      ),
      newest as (
        -- The last of a driver's reports of the same time wins, as the last to arrive.
        select distinct on (id) * from reports where active order by id, at desc, report desc
      ),
      ${touchDevices}
      stored as (
        update ${drivers} as d
        set lat = n.lat, long = n.long, position_at = n.at
        from newest as n${durability}
        where d.id = n.id and d.deleted_at is null and (d.position_at is null or d.position_at <= n.at)
        returning n.report, d.lat, d.long, d.position_at
      )
      select report, lat, long, position_at, false as inactive from stored
      union all
      select report, null, null, null, true from reports where not active`),
    ),
  );
  const outcomes = new Map(rows.map((row) => [Number(row.report), row]));
  return reports.map((_, i): RecordedPosition => {
    const row = outcomes.get(i);
    if (!row) return { active: true, position: null };
    if (row.inactive === true) return { active: false };
    return {
      active: true,
      position: {
        lat: Number(row.lat),
        long: Number(row.long),
        positionAt: new Date(row.position_at as string | Date),
      },
    };
  });
}
