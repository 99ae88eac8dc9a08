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
import type { SortOrder } from '@bmet/shared/schemas/sort';
import { queryShapes } from '../../db/query-shapes';
import { rowReader } from '../../db/row-reader';
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
 * `values` may be placeholders (findCustomers builds each shape once); `size` is the real page
 * size, which pageLimit writes into the statement or leaves to `values.limit`.
 */
function customerListQueries(
  db: Db,
  shape: { searched: boolean; after: boolean; counted: boolean; order: SortOrder; size: number },
  values: { pattern: unknown; afterName: unknown; afterId: unknown; limit: unknown },
) {
  const filter: SQL | undefined = shape.searched
    ? sql`${customers.searchText} like '%' || lower(${values.pattern}) || '%'`
    : undefined;
  const written = pageLimit(shape.size);
  const page = db
    .select(pageFields)
    .from(customers)
    .where(
      and(
        filter,
        shape.after ? afterKey(NAME_KEY, shape.order, [values.afterName, values.afterId]) : undefined,
      ),
    )
    .orderBy(...orderByKey(NAME_KEY, shape.order))
    .limit(typeof written === 'number' ? (values.limit as number) : written);
  // Counted on the first page only: the next pages' cursors carry the count on. Unsearched, the
  // count is the one the database keeps (migration 0016), exact; a search's stops at the cap.
  const total = !shape.counted
    ? null
    : shape.searched
      ? cappedCountQuery(db, customers, filter)
      : db.select({ total: listCounts.rows }).from(listCounts).where(eq(listCounts.list, 'customers'));
  return { page, total };
}

const pageFields = { ...customerColumns, sortKey: keyColumn(NAME_KEY) };
const readPage = rowReader(pageFields);
const readKeptTotal = rowReader({ total: listCounts.rows });
const readCappedTotal = rowReader({ total: count() });
const customerListShapes = queryShapes();

/** What a list request asks, as the queries take it: its shape, and the values filled in. */
function customerListPlan(options: CustomerListOptions) {
  refuseNul('q', options.q);
  const sort = resolveSort(CUSTOMER_SORTS, DEFAULT_ORDERS.customers, options);
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, NAME_KEY) : null;
  const shape = {
    searched: Boolean(options.q),
    after: after !== null,
    counted: after?.t === undefined,
    order: sort.order,
    size: options.limit + 1,
  };
  const values = {
    pattern: options.q ? escapeLikePattern(options.q) : null,
    afterName: after ? after.k[0] : null,
    afterId: after ? after.k[1] : null,
    limit: options.limit + 1,
  };
  return { shape, values, sort, after, kept: !options.q };
}

/** A page's queries as findCustomers runs them, for the benchmark to EXPLAIN. */
export function buildCustomerListQueries(db: Db, options: CustomerListOptions) {
  const { shape, values } = customerListPlan(options);
  return customerListQueries(db, shape, values);
}

/**
 * A page of customers in name order, with the cursor of the next page and the count of all. Its
 * statements are built once per shape and read without Drizzle's mapping (db/query-shapes.ts,
 * db/row-reader.ts): building and mapping them was most of the server's time on the list.
 */
export async function findCustomers(db: Db, options: CustomerListOptions) {
  const { shape, values, sort, after, kept } = customerListPlan(options);
  const written = typeof pageLimit(shape.size) !== 'number';
  const name = `${shape.searched}:${shape.after}:${shape.counted}:${shape.order}:${written ? shape.size : 'n'}`;
  const { page, total } = customerListShapes(name, values, (placeholders) =>
    customerListQueries(db, shape, placeholders),
  );
  type Row = {
    id: string;
    name: string;
    email: string | null;
    phoneNumber: string | null;
    sortKey: unknown[];
  };
  const readTotal = kept ? readKeptTotal : readCappedTotal;
  const { rows, listTotal } = await pageWithTotal(
    readPage<Row>(db, page),
    total && { then: (done, fail) => readTotal<{ total: number }>(db, total).then(done, fail) },
    { limit: options.limit, kept, after },
  );
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
