import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { driverScope } from '../drivers/scope';
import { driverDeviceTokens, drivers } from '../../db/schema';
import type { DbExecutor } from '../../infra/audit';
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

/** The device behind a token hash: a token not revoked, of a driver not deleted. */
export async function findActiveDevice(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ tokenId: driverDeviceTokens.id, driverId: driverDeviceTokens.driverId })
    .from(driverDeviceTokens)
    .innerJoin(drivers, eq(drivers.id, driverDeviceTokens.driverId))
    .where(
      and(
        eq(driverDeviceTokens.tokenHash, tokenHash),
        isNull(driverDeviceTokens.revokedAt),
        isNull(drivers.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function touchDeviceToken(db: Db, tokenId: string): Promise<void> {
  await db
    .update(driverDeviceTokens)
    .set({ lastUsedAt: new Date() })
    .where(eq(driverDeviceTokens.id, tokenId));
}

/**
 * Stores a reported position unless the driver already has a newer one (a late or replayed
 * report never moves the driver back in time). Answers the stored position, or null if ignored.
 */
export async function recordPosition(
  db: Db,
  input: { driverId: string; lat: number; long: number; at: Date },
): Promise<{ lat: number; long: number; positionAt: Date } | null> {
  const [row] = await db
    .update(drivers)
    .set({ lat: input.lat, long: input.long, positionAt: input.at })
    .where(
      and(
        eq(drivers.id, input.driverId),
        isNull(drivers.deletedAt),
        or(isNull(drivers.positionAt), lte(drivers.positionAt, input.at)),
      ),
    )
    .returning({ lat: drivers.lat, long: drivers.long, positionAt: drivers.positionAt });
  return row ? { lat: row.lat!, long: row.long!, positionAt: row.positionAt! } : null;
}
