import { eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';
import { accounts, drivers, trips } from '../../db/schema';

export type TripScopeCaller = { id: string; role: Role };

/**
 * The drivers whose trips a caller may see, as a WHERE condition on `drivers`, or null for an
 * admin, who sees every trip, with a driver or without. A city dealer sees the trips of the
 * drivers of the franchises working under it; a franchise those of its own drivers. Trips of a
 * soft-deleted driver stay visible: they are the franchise's past work.
 */
export function scopeDrivers(caller: TripScopeCaller): SQL | null {
  return scopeFranchises(caller, drivers.franchiseId);
}

/**
 * The franchises whose drivers' trips a caller may see, as a WHERE condition on a column holding
 * a franchise id (a driver's, or a dashboard figure's), or null for an admin. The dashboard's
 * figures are kept per franchise and scoped by this same rule, so they count what the list shows.
 */
export function scopeFranchises(caller: TripScopeCaller, franchiseId: AnyColumn): SQL | null {
  switch (caller.role) {
    case 'admin':
      return null;
    case 'city_dealer':
      return sql`${franchiseId} in (select ${accounts.id} from ${accounts} where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise')`;
    case 'franchise':
      return eq(franchiseId, caller.id);
    default: {
      // A role added to the matrix must be given a scope here before it can see any trip.
      const unknown: never = caller.role;
      throw new Error(`No trip scope for role ${String(unknown)}`);
    }
  }
}

/**
 * The trips a caller may see, as a WHERE condition on `trips`; every trip query goes through it
 * (or through scopeDrivers), so a trip outside the caller's scope is never read nor told apart
 * from a missing one. A trip without a driver belongs to no franchise, so only admins see it.
 */
export function tripScope(caller: TripScopeCaller): SQL {
  const drivenBy = scopeDrivers(caller);
  if (!drivenBy) return sql`true`;
  return sql`${trips.driverId} in (select ${drivers.id} from ${drivers} where ${drivenBy})`;
}
