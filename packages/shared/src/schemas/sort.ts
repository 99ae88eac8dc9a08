import { z } from 'zod';
import { m } from '../paraglide/messages.js';

/**
 * Column sorting of the lists: `?sort=FIELD&order=asc|desc`, the field named as in the list's rows.
 * Each list sorts by the fields an index serves; without `sort` a list keeps its own order, and
 * `order` alone turns that order round. `desc` is always the exact reverse of `asc` (ties broken by
 * the record's id), so that keyset paging stays correct under every sort.
 */
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];

/** The fields each list sorts by; the first is its default, in its default order. */
export const DRIVER_SORTS = ['name', 'createdAt'] as const;
export const CUSTOMER_SORTS = ['name'] as const;
/** City dealers and franchises alike: newest first unless sorted otherwise. */
export const ACCOUNT_SORTS = ['createdAt', 'name', 'state'] as const;
export const TRIP_SORTS = ['createdAt', 'price', 'status'] as const;
export type TripSort = (typeof TRIP_SORTS)[number];
export const AUDIT_SORTS = ['at'] as const;
/** Vehicles by registration number (A to Z) unless sorted otherwise. */
export const VEHICLE_SORTS = ['registrationNumber', 'createdAt'] as const;
/** The expiry views default to expiresOn, the review view to uploadedAt. */
export const COMPLIANCE_SORTS = ['expiresOn', 'uploadedAt', 'driverName'] as const;

/** The order a list has when the request names none: newest first for records of time, else A to Z. */
export const DEFAULT_ORDERS = {
  drivers: 'asc',
  customers: 'asc',
  accounts: 'desc',
  trips: 'desc',
  audit: 'desc',
  compliance: 'asc',
  vehicles: 'asc',
} as const satisfies Record<string, SortOrder>;

/** The `sort` and `order` fields of a list query, for a list sorting by `fields`. */
export function sortShape<const F extends readonly [string, ...string[]]>(fields: F) {
  return {
    sort: z.enum(fields, { error: () => m.sortFieldInvalid({ fields: fields.join(', ') }) }).optional(),
    order: z.enum(SORT_ORDERS, { error: () => m.sortOrderInvalid() }).optional(),
  };
}

/** A list's sort as the server applies it: the field (the default when none is named) and its order. */
export function resolveSort<F extends string>(
  fields: readonly [F, ...F[]],
  defaultOrder: SortOrder,
  query: { sort?: F; order?: SortOrder },
): { field: F; order: SortOrder } {
  const field = query.sort ?? fields[0];
  // A field other than the default starts from its natural order: A to Z, oldest or cheapest first.
  const natural: SortOrder = field === fields[0] ? defaultOrder : 'asc';
  return { field, order: query.order ?? natural };
}
