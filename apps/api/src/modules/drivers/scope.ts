import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import { accounts, drivers } from '../../db/schema';

export type DriverScopeCaller = { id: string; role: Role };

/**
 * The drivers a caller may see, as a WHERE condition on `drivers`; every driver query goes through
 * it, so a row outside the caller's scope is never read, changed or told apart from a missing one.
 * An admin sees every driver; a city dealer the drivers of the franchises working under it; a
 * franchise its own drivers. Soft-deleted drivers exist only for the deleted view and restore.
 */
export function driverScope(caller: DriverScopeCaller, options: { deleted?: boolean } = {}): SQL {
  const lifecycle = options.deleted ? isNotNull(drivers.deletedAt) : isNull(drivers.deletedAt);
  switch (caller.role) {
    case 'admin':
      return lifecycle;
    case 'city_dealer':
      return and(
        lifecycle,
        sql`${drivers.franchiseId} in (select ${accounts.id} from ${accounts} where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise')`,
      )!;
    case 'franchise':
      return and(lifecycle, eq(drivers.franchiseId, caller.id))!;
    default: {
      // A role added to the matrix must be given a scope here before it can see any driver.
      const unknown: never = caller.role;
      throw new Error(`No driver scope for role ${String(unknown)}`);
    }
  }
}
