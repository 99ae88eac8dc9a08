import { and, eq, isNotNull, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import { accounts, driverCounts, drivers } from '../../db/schema';
import type { DbExecutor } from '../../db/client';

export type DriverScopeCaller = { id: string; role: Role };

/**
 * The drivers a caller may see, as a WHERE condition on `drivers`; every driver query goes through
 * it, so a row outside the caller's scope is never read, changed or told apart from a missing one.
 * An admin sees every driver; a city dealer the drivers of the franchises working under it; a
 * franchise its own drivers. Soft-deleted drivers exist only for the deleted view and restore.
 */
export function driverScope(caller: DriverScopeCaller, options: { deleted?: boolean } = {}): SQL {
  const lifecycle = options.deleted ? isNotNull(drivers.deletedAt) : isNull(drivers.deletedAt);
  return and(lifecycle, franchiseScope(caller, drivers.franchiseId))!;
}

/**
 * The franchises whose drivers a caller may see, as a condition on a column holding a driver's
 * franchise (none for an admin, who sees every driver, those without a franchise included).
 */
function franchiseScope(caller: DriverScopeCaller, franchiseId: AnyColumn): SQL | undefined {
  switch (caller.role) {
    case 'admin':
      return undefined;
    case 'city_dealer':
      return sql`${franchiseId} in (select ${accounts.id} from ${accounts} where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise')`;
    case 'franchise':
      return eq(franchiseId, caller.id);
    default: {
      // A role added to the matrix must be given a scope here before it can see any driver.
      const unknown: never = caller.role;
      throw new Error(`No driver scope for role ${String(unknown)}`);
    }
  }
}

/**
 * How many drivers driverScope lets the caller see, read from the counts the database keeps per
 * franchise (migration 0015): a few rows summed, however many drivers there are.
 */
export function driverScopeCount(
  db: DbExecutor,
  caller: DriverScopeCaller,
  options: { deleted?: boolean } = {},
) {
  return db
    .select({ total: sql<number>`coalesce(sum(${driverCounts.drivers}), 0)::int` })
    .from(driverCounts)
    .where(
      and(
        eq(driverCounts.deleted, options.deleted ?? false),
        franchiseScope(caller, driverCounts.franchiseId),
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
export function isDriverInScope(caller: DriverScopeCaller, driver: DriverPlacement): boolean {
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
      throw new Error(`No driver scope for role ${String(unknown)}`);
    }
  }
}

/** The deleted drivers are shown to those who may restore them (admins) only: the list's refusal. */
export function refuseDeletedView(caller: DriverScopeCaller, deleted: boolean | undefined): void {
  if (deleted && !can(caller, ['drivers', 'restore'])) {
    throw new AppError('FORBIDDEN', m.deletedDriversAdminOnly());
  }
}
