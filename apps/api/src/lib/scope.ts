import { and, eq, isNotNull, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import type { DbExecutor } from '../db/client';
import { accounts, driverCounts, drivers, trips } from '../db/schema';

/**
 * Row scope, the other half of access control (the permission matrix says who may call a route):
 * which drivers, trips and accounts a caller may read or change. An admin reaches everything; a
 * city dealer the franchises working under it, their drivers and trips; a franchise itself, its
 * drivers and their trips. Every query of those rows goes through these conditions, so a row
 * outside the caller's scope is never read, changed or told apart from a missing one.
 */

/** Whose scope applies. */
export type ScopeCaller = { id: string; role: Role };

/** The caller of a change: whose scope applies, and who the audit log names. */
export type ChangeCaller = ScopeCaller & { requestId: string };

/**
 * The franchises whose drivers a caller may see (and so those drivers' trips, and the figures kept
 * per franchise), as a condition on a column holding a franchise id; none for an admin, who sees
 * every driver and trip, those without a franchise included.
 */
export function franchiseIdScope(caller: ScopeCaller, franchiseId: AnyColumn): SQL | undefined {
  switch (caller.role) {
    case 'admin':
      return undefined;
    case 'city_dealer':
      return sql`${franchiseId} in (select ${accounts.id} from ${accounts} where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise')`;
    case 'franchise':
      return eq(franchiseId, caller.id);
    default: {
      // A role added to the matrix must be given a scope here before it can see any row.
      const unknown: never = caller.role;
      throw new Error(`No scope for role ${String(unknown)}`);
    }
  }
}

/**
 * The drivers a caller may see, as a condition on `drivers` (or on `table`, a table of theirs with
 * the same columns, such as driver_search). Soft-deleted drivers exist only for the deleted view
 * and restore.
 */
export function driverScope(
  caller: ScopeCaller,
  options: { deleted?: boolean } = {},
  table: { deletedAt: AnyColumn; franchiseId: AnyColumn } = drivers,
): SQL {
  const lifecycle = options.deleted ? isNotNull(table.deletedAt) : isNull(table.deletedAt);
  return and(lifecycle, franchiseIdScope(caller, table.franchiseId))!;
}

/**
 * How many drivers driverScope lets the caller see, read from the counts the database keeps per
 * franchise (migration 0015): a few rows summed, however many drivers there are.
 */
export function driverScopeCount(db: DbExecutor, caller: ScopeCaller, options: { deleted?: boolean } = {}) {
  return db
    .select({ total: sql<number>`coalesce(sum(${driverCounts.drivers}), 0)::int` })
    .from(driverCounts)
    .where(
      and(
        eq(driverCounts.deleted, options.deleted ?? false),
        franchiseIdScope(caller, driverCounts.franchiseId),
      ),
    );
}

/** Where a driver stands in the hierarchy: its franchise and the city dealer that franchise works under. */
export type DriverPlacement = {
  franchiseId: string | null;
  /** The dealer of the driver's franchise (null without a franchise, or for an account that is no franchise). */
  dealerId: string | null;
  deletedAt: Date | null;
};

/**
 * driverScope's rule on a driver already read, for positions pushed to many viewers at once (one
 * read of the drivers, then each viewer's share in memory). Keep the two in step: the tests check
 * them against each other.
 */
export function isDriverInScope(caller: ScopeCaller, driver: DriverPlacement): boolean {
  if (driver.deletedAt) return false;
  switch (caller.role) {
    case 'admin':
      return true;
    case 'city_dealer':
      return driver.franchiseId !== null && driver.dealerId === caller.id;
    case 'franchise':
      return driver.franchiseId === caller.id;
    default: {
      const unknown: never = caller.role;
      throw new Error(`No scope for role ${String(unknown)}`);
    }
  }
}

/**
 * The records about a driver a caller may see and work (a grievance, an SOS alert), as a condition
 * on the column holding the driver's id: those about the drivers of driverScope's franchises, deleted
 * drivers' included (their past is the franchise's). None for an admin; a record about no driver is
 * the admins' alone.
 */
export function aboutDriverScope(caller: ScopeCaller, driverId: AnyColumn): SQL | undefined {
  const franchises = franchiseIdScope(caller, drivers.franchiseId);
  if (!franchises) return undefined;
  return sql`${driverId} in (select ${drivers.id} from ${drivers} where ${franchises})`;
}

/**
 * The drivers whose trips a caller may see, as a condition on `drivers`, or none for an admin, who
 * sees every trip, with a driver or without. Trips of a soft-deleted driver stay visible: they are
 * the franchise's past work.
 */
export function tripDriverScope(caller: ScopeCaller): SQL | undefined {
  return franchiseIdScope(caller, drivers.franchiseId);
}

/**
 * The trips a caller may see, as a condition on `trips`. A trip without a driver belongs to no
 * franchise, so only admins see it.
 */
export function tripScope(caller: ScopeCaller): SQL {
  const drivenBy = tripDriverScope(caller);
  if (!drivenBy) return sql`true`;
  return sql`${trips.driverId} in (select ${drivers.id} from ${drivers} where ${drivenBy})`;
}

/** The columns an account scope reads: of the accounts table or of an alias of it. */
type AccountColumns = { role: AnyColumn; deletedAt: AnyColumn; dealerId: AnyColumn };

/**
 * The franchise accounts a caller may see and manage, as a condition on accounts (or an alias):
 * an admin every franchise, a city dealer those working under it. Deleted accounts never show.
 */
export function franchiseAccountScope(caller: ScopeCaller, table: AccountColumns): SQL {
  const franchises = and(eq(table.role, 'franchise'), isNull(table.deletedAt))!;
  switch (caller.role) {
    case 'admin':
      return franchises;
    case 'city_dealer':
      return and(franchises, eq(table.dealerId, caller.id))!;
    case 'franchise':
      // A franchise manages no franchise (the matrix already keeps it from these routes).
      return sql`false`;
    default: {
      const unknown: never = caller.role;
      throw new Error(`No scope for role ${String(unknown)}`);
    }
  }
}

/** The city dealer accounts (only admins reach them): every one that is not deleted. */
export function cityDealerAccountScope(table: AccountColumns): SQL {
  return and(eq(table.role, 'city_dealer'), isNull(table.deletedAt))!;
}
