import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { customerListQuerySchema } from '@bmet/shared/schemas/customer';
import { CUSTOMER_SORTS, DEFAULT_ORDERS, resolveSort } from '@bmet/shared/schemas/sort';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import type { Db } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { customerRatings, customers, listCounts } from '../../db/schema';
import { cappedCountQuery, escapeLikePattern, pageWithTotal, withTotal } from '../../lib/paging';
import { refuseNul } from '../../lib/text';

const customerColumns = {
  id: customers.id,
  name: customers.name,
  email: customers.email,
  phoneNumber: customers.phoneNumber,
};

// ---------------------------------------------------------------------------------------------
// List: by name (A to Z or Z to A), keyset on (name, id), served by customers_name_idx

const NAME_KEY: KeyPart[] = [
  { expression: customers.name, type: 'text' },
  { expression: customers.id, type: 'uuid' },
];

/** A customers list as the API reads it: the contract's query, checked. */
export type CustomerListOptions = z.output<typeof customerListQuerySchema>;

/**
 * The two queries of a list page: the page itself (keyset on name then id, one row more than
 * asked to tell whether another page follows) and the count of everything matching the search.
 */
export function buildCustomerListQueries(db: Db, options: CustomerListOptions) {
  refuseNul('q', options.q);
  const filter: SQL | undefined = options.q
    ? sql`${customers.searchText} like '%' || lower(${escapeLikePattern(options.q)}) || '%'`
    : undefined;
  const sort = resolveSort(CUSTOMER_SORTS, DEFAULT_ORDERS.customers, options);
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, NAME_KEY) : null;
  const page = db
    .select({ ...customerColumns, sortKey: keyColumn(NAME_KEY) })
    .from(customers)
    .where(and(filter, after ? afterKey(NAME_KEY, sort.order, after.k) : undefined))
    .orderBy(...orderByKey(NAME_KEY, sort.order))
    .limit(pageLimit(options.limit + 1));
  // Counted on the first page only: the next pages' cursors carry the count on. Unsearched, the
  // count is the one the database keeps (migration 0016), exact; a search's stops at the cap.
  const kept = !options.q;
  const total =
    after?.t !== undefined
      ? null
      : kept
        ? db.select({ total: listCounts.rows }).from(listCounts).where(eq(listCounts.list, 'customers'))
        : cappedCountQuery(db, customers, filter);
  return { page, total, kept, after, sort };
}

/** A page of customers in name order, with the cursor of the next page and the count of all. */
export async function findCustomers(db: Db, options: CustomerListOptions) {
  const { page, total, kept, after, sort } = buildCustomerListQueries(db, options);
  const { rows, listTotal } = await pageWithTotal(page, total, { limit: options.limit, kept, after });
  const { shown, nextCursor } = sortedPage(rows, options.limit, sort, withTotal({}, listTotal));
  return { customers: shown.map(({ sortKey: _sortKey, ...customer }) => customer), nextCursor, ...listTotal };
}

// ---------------------------------------------------------------------------------------------
// One customer with the ratings drivers gave them

/** At most this many rating entries come with a customer, newest first. */
export const CUSTOMER_RATINGS_LIMIT = 100;

const isRating = (value: number | null): value is number => value !== null && value >= 1 && value <= 5;

/**
 * A customer with the newest rating entries (entries without a rating included, shown as 'Not
 * rated') and the average (one decimal) and count over every entry that carries a rating; null
 * when there is no such customer.
 */
export async function findCustomer(db: Db, id: string) {
  const [customer] = await db.select(customerColumns).from(customers).where(eq(customers.id, id));
  if (!customer) return null;
  const entries = await db
    .select({
      id: customerRatings.id,
      customerName: customerRatings.customerName,
      description: customerRatings.description,
      rating: customerRatings.rating,
      createdAt: customerRatings.createdAt,
    })
    .from(customerRatings)
    .where(eq(customerRatings.customerId, id))
    .orderBy(desc(customerRatings.createdAt), desc(customerRatings.id))
    .limit(CUSTOMER_RATINGS_LIMIT);
  const [summary] = await db
    .select({
      average: sql<string | null>`round(avg(${customerRatings.rating}), 1)`,
      count: count(customerRatings.rating),
    })
    .from(customerRatings)
    .where(and(eq(customerRatings.customerId, id), sql`${customerRatings.rating} between 1 and 5`));
  return {
    ...customer,
    ratings: entries.map((entry) => ({
      id: entry.id,
      customerName: entry.customerName,
      description: entry.description,
      // Only 1 to 5 is a rating; anything else stored by an old app shows as 'Not rated'.
      rating: isRating(entry.rating) ? entry.rating : null,
      date: entry.createdAt.toISOString(),
    })),
    rating: {
      average: summary?.average == null ? null : Number(summary.average),
      count: summary?.count ?? 0,
    },
  };
}
