import { and, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Role } from '@bmet/shared/constants';

export type AccountScopeCaller = { id: string; role: Role };

/** The columns a scope reads: of the accounts table or of an alias of it. */
type AccountColumns = { role: AnyColumn; deletedAt: AnyColumn; dealerId: AnyColumn };

/**
 * The franchises a caller may see and manage, as a WHERE condition on accounts (or an alias):
 * an admin every franchise, a city dealer those working under it. Deleted accounts never show.
 */
export function franchiseScope(table: AccountColumns, caller: AccountScopeCaller): SQL {
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
      throw new Error(`No franchise scope for role ${String(unknown)}`);
    }
  }
}

/** The city dealers (only admins reach them): every one that is not deleted. */
export function cityDealerScope(table: AccountColumns): SQL {
  return and(eq(table.role, 'city_dealer'), isNull(table.deletedAt))!;
}
