import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { CAR_TYPES, STATES, type CarType, type State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Driver } from '@bmet/shared/schemas/driver';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, driverAverageRating, drivers } from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';
import { type ScopeCaller, driverScope, type ChangeCaller } from '../../lib/scope';
import { stateLabel } from '@bmet/shared/labels';

export const actorOf = (caller: ChangeCaller): Actor => ({ id: caller.id, requestId: caller.requestId });

export const franchise = alias(accounts, 'franchise');

export const driverBaseColumns = {
  id: drivers.id,
  name: drivers.name,
  email: drivers.email,
  phoneNumber: drivers.phoneNumber,
  country: drivers.country,
  state: drivers.state,
  franchiseId: drivers.franchiseId,
  carModel: drivers.carModel,
  vehicleNumber: drivers.vehicleNumber,
  carType: drivers.carType,
  lat: drivers.lat,
  long: drivers.long,
  positionAt: drivers.positionAt,
  createdAt: drivers.createdAt,
  deletedAt: drivers.deletedAt,
};
export const franchiseName = sql<string | null>`coalesce(${franchise.displayName}, ${franchise.email})`;
const driverColumns = { ...driverBaseColumns, franchiseName };

function selectDrivers(db: DbExecutor) {
  return db
    .select(driverColumns)
    .from(drivers)
    .leftJoin(franchise, eq(franchise.id, drivers.franchiseId))
    .$dynamic();
}
type DriverRecord = Awaited<ReturnType<typeof selectDrivers>>[number];
/** A row of a list page: a driver with its sort key, for the next page's cursor. */
export type DriverPageRow = DriverRecord & { sortKey: unknown[] };

const isState = (value: string | null): value is State => STATES.includes(value as State);
const isCarType = (value: string | null): value is CarType => CAR_TYPES.includes(value as CarType);

/** A stored driver as the contract shows it; values outside the known lists read as unknown. */
export function toDriver(row: DriverRecord): Driver {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phoneNumber: row.phoneNumber,
    country: row.country,
    state: isState(row.state) ? row.state : null,
    franchiseId: row.franchiseId,
    franchiseName: row.franchiseName,
    carModel: row.carModel,
    vehicleNumber: row.vehicleNumber,
    carType: isCarType(row.carType) ? row.carType : null,
    position: row.lat !== null && row.long !== null ? { lat: row.lat, long: row.long } : null,
    positionAt: row.positionAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    deletedAt: row.deletedAt?.toISOString() ?? null,
  };
}

/** A driver in the caller's scope (active ones unless `deleted`), or null. */
export async function findDriver(
  db: DbExecutor,
  caller: ScopeCaller,
  id: string,
  options: { deleted?: boolean } = {},
): Promise<Driver | null> {
  const [row] = await selectDrivers(db)
    .where(and(eq(drivers.id, id), driverScope(caller, options)))
    .limit(1);
  return row ? toDriver(row) : null;
}

/** Like findDriver, but a driver outside the caller's scope is a 404, as if it did not exist. */
export async function getDriver(db: DbExecutor, caller: ScopeCaller, id: string): Promise<Driver> {
  const driver = await findDriver(db, caller, id);
  if (!driver) throw new AppError('NOT_FOUND', m.notFound());
  return driver;
}

/**
 * Average (one decimal) and count of the ratings that carry a rating (1 to 5), from the sums the
 * database keeps on the driver (migration 0017).
 */
export async function findRatingSummary(db: DbExecutor, driverId: string) {
  const [row] = await db
    .select({
      average: driverAverageRating(drivers),
      count: drivers.ratingCount,
    })
    .from(drivers)
    .where(eq(drivers.id, driverId));
  return {
    average: row?.average == null ? null : Number(row.average),
    count: row?.count ?? 0,
  };
}

/** Locks an active or deleted driver of the caller's scope for a change; null when there is none. */
export async function lockDriver(tx: DbExecutor, caller: ScopeCaller, id: string, deleted = false) {
  const [row] = await tx
    .select({
      id: drivers.id,
      franchiseId: drivers.franchiseId,
      state: drivers.state,
      deletedAt: drivers.deletedAt,
      deletedBy: drivers.deletedBy,
    })
    .from(drivers)
    .where(and(eq(drivers.id, id), driverScope(caller, { deleted })))
    .for('update');
  return row ?? null;
}

/** Soft-deletes an active driver of the caller's scope; false when there is none. */
export async function softDeleteDriver(db: Db, caller: ChangeCaller, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await lockDriver(tx, caller, id);
    if (!before) return false;
    const deletedAt = new Date();
    await tx.update(drivers).set({ deletedAt, deletedBy: caller.id }).where(eq(drivers.id, id));
    await recordAudit(tx, actorOf(caller), {
      action: 'delete',
      resource: 'drivers',
      resourceId: id,
      before: { deletedAt: null, deletedBy: null },
      after: { deletedAt, deletedBy: caller.id },
    });
    return true;
  });
}

/** Brings back a soft-deleted driver; null when the caller has no such deleted driver. */
export async function restoreDriver(db: Db, caller: ChangeCaller, id: string): Promise<Driver | null> {
  return db.transaction(async (tx) => {
    const before = await lockDriver(tx, caller, id, true);
    if (!before) return null;
    await tx.update(drivers).set({ deletedAt: null, deletedBy: null }).where(eq(drivers.id, id));
    await recordAudit(tx, actorOf(caller), {
      action: 'restore',
      resource: 'drivers',
      resourceId: id,
      before: { deletedAt: before.deletedAt, deletedBy: before.deletedBy },
      after: { deletedAt: null, deletedBy: null },
    });
    return findDriver(tx, caller, id);
  });
}

/**
 * Assigns a driver to a franchise and a state. The franchise must be an active franchise account;
 * the driver works in its franchise's state, taken from the franchise when none is given.
 */
export async function assignDriver(
  db: Db,
  caller: ChangeCaller,
  id: string,
  input: { franchiseId: string | null; state: State | null },
): Promise<Driver | null> {
  return db.transaction(async (tx) => {
    const before = await lockDriver(tx, caller, id);
    if (!before) return null;
    let state = input.state;
    if (input.franchiseId) {
      const [target] = await tx
        .select({ role: accounts.role, state: accounts.state, disabled: accounts.disabled })
        .from(accounts)
        .where(eq(accounts.id, input.franchiseId))
        .for('share');
      if (!target || target.role !== 'franchise' || target.disabled) {
        throw new AppError('VALIDATION', m.franchiseNotFound(), {
          fieldErrors: { franchiseId: [m.franchiseNotFound()] },
        });
      }
      if (isState(target.state)) {
        if (state === null) state = target.state;
        else if (state !== target.state) {
          const message = m.stateDiffersFromFranchise({ state: stateLabel(target.state) });
          throw new AppError('VALIDATION', message, { fieldErrors: { state: [message] } });
        }
      }
    }
    await tx.update(drivers).set({ franchiseId: input.franchiseId, state }).where(eq(drivers.id, id));
    await recordAudit(tx, actorOf(caller), {
      action: 'assign',
      resource: 'drivers',
      resourceId: id,
      before: { franchiseId: before.franchiseId, state: before.state },
      after: { franchiseId: input.franchiseId, state },
    });
    return findDriver(tx, caller, id);
  });
}
