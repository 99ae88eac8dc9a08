import { and, count, eq, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { readSearchTerms } from '@bmet/shared/search-terms';
import type { z } from 'zod';
import type { driverListQuerySchema } from '@bmet/shared/schemas/driver';
import { LIST_TOTAL_CAP, STATES } from '@bmet/shared/constants';
import { quarterStart } from '@bmet/shared/check-status';
import { DEFAULT_ORDERS, DRIVER_SORTS, resolveSort, type SortOrder } from '@bmet/shared/schemas/sort';
import type { Db, DbExecutor } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { queryShapes } from '../../db/query-shapes';
import { rowReader } from '../../db/row-reader';
import { driverSearch, drivers } from '../../db/schema';
import {
  cappedCountQuery,
  escapeLikePattern,
  pageWithTotal,
  toListTotal,
  withTotal,
  type ListTotal,
} from '../../lib/paging';
import { indianToday } from '../../lib/ist-days';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { refuseNul } from '../../lib/text';
import {
  complianceCondition,
  complianceReader,
  withMandatoryDocuments,
  type MandatoryDocuments,
} from '../compliance/status';
import { figuresByStateJson, figuresInEffect } from '../fare-rules/figures';
import { type ScopeCaller, driverScope, driverScopeCount } from '../../lib/scope';
import { driverBaseColumns, franchise, franchiseName, toDriver, type DriverPageRow } from './repository';
import { remedialCutoffs } from './checks';

/** The drivers list: sorts, the plan of its queries by scope and search, and its pages. */

type DriverSort = (typeof DRIVER_SORTS)[number];

/**
 * Each sort's key over a drivers row (the table, or a subquery of its columns): name then id
 * (drivers_name_idx, drivers_franchise_name_idx) or created_at then id (drivers_created_idx,
 * drivers_franchise_created_idx).
 */
function driverKey(
  row: { name: AnyColumn | SQL.Aliased; createdAt: AnyColumn | SQL.Aliased; id: AnyColumn | SQL.Aliased },
  field: DriverSort,
): KeyPart[] {
  const part = (expression: AnyColumn | SQL.Aliased) => sql`${expression}`;
  const id: KeyPart = { expression: part(row.id), type: 'uuid' };
  return field === 'name'
    ? [{ expression: part(row.name), type: 'text' }, id]
    : [{ expression: part(row.createdAt), type: 'timestamptz' }, id];
}

/** A drivers list as the API reads it: the contract's query, checked. */
export type DriverListOptions = z.output<typeof driverListQuerySchema>;

/** The values a list page's queries take, each a parameter of the statement. */
type DriverListValues = {
  /** The city dealer or franchise whose drivers are listed. */
  callerId?: string;
  /** The search, as a LIKE pattern's escaped text. */
  pattern?: string;
  /** The search read as a phone number (its last ten digits) or a registration number, if it is one. */
  phone?: string;
  registration?: string;
  /** Today in India, for the compliance filter. */
  today?: string;
  /** Each state's figures of the checks, as JSON, for the compliance filter. */
  figures?: string;
  /** Each state's average rating at the edge of its lowest-rated share, as JSON (remedial filter). */
  cutoffs?: string;
  /** The first day of this calendar quarter in India (remedial filter). */
  quarter?: string;
  /** The cursor's key, part by part. */
  k0?: unknown;
  k1?: unknown;
};

/**
 * What a list request asks for, apart from its values: the order, the cursor read, whether the
 * count is the kept one, and the name of its queries' shape (everything that changes their text).
 */
function driverListPlan(caller: ScopeCaller, options: DriverListOptions) {
  const sort = resolveSort(DRIVER_SORTS, DEFAULT_ORDERS.drivers, options);
  const after = options.cursor
    ? decodeSortedCursor(options.cursor, sort, driverKey(drivers, sort.field))
    : null;
  // Unsearched and unfiltered, the count is the one the database keeps, exact; otherwise it stops
  // at the cap.
  const kept = !options.q && !options.compliance && !options.remedial;
  const size = options.limit + 1;
  const values: DriverListValues = {};
  if (caller.role !== 'admin') values.callerId = caller.id;
  if (options.q) {
    values.pattern = escapeLikePattern(options.q);
    const search = readSearchTerms(options.q);
    if (search.phone) values.phone = search.phone;
    if (search.registration) values.registration = search.registration;
  }
  if (options.compliance) values.today = indianToday();
  if (options.remedial) values.quarter = quarterStart(indianToday());
  if (after) [values.k0, values.k1] = after.k;
  const shapeName = [
    caller.role,
    sort.field,
    sort.order,
    options.q ? 'q' : '',
    values.phone ? 'phone' : '',
    values.registration ? 'registration' : '',
    options.compliance ?? '',
    options.remedial ?? '',
    options.deleted ? 'deleted' : '',
    after ? 'after' : '',
    after?.t !== undefined ? 'counted' : '',
    size,
  ].join('|');
  return {
    sort,
    after,
    kept,
    size,
    values,
    shapeName,
    deleted: options.deleted,
    compliance: options.compliance,
    remedial: options.remedial,
  };
}
type DriverListPlan = ReturnType<typeof driverListPlan>;

/**
 * Drivers due remedial training this quarter (as checkStatuses decides for one): rated, at or below
 * their state's cutoff, and without a remedial training since `quarter` began. `cutoffs` and
 * `quarter` may be placeholders of a query built once per shape.
 */
function remedialDue(cutoffs: unknown, quarter: unknown): SQL {
  return sql`(${drivers.ratingCount} > 0
    and ${drivers.ratingTotal}::float8 / ${drivers.ratingCount} <= (${cutoffs}::jsonb ->> ${drivers.state})::float8
    and not exists (select 1 from driver_checks c where c.driver_id = ${drivers.id}
      and c.kind = 'remedial_training' and c.done_on >= ${quarter}::date))`;
}

/**
 * The two queries of a list page: the page itself (keyset on the sort's key, one row more than
 * asked to tell whether another page follows) and the count of everything matching the filter,
 * built from `values` only (placeholders when queryShapes builds a shape).
 */
function driverListQueries(
  db: DbExecutor,
  role: ScopeCaller['role'],
  plan: DriverListPlan,
  values: DriverListValues,
) {
  const scoped = { id: values.callerId!, role };
  const searched = plan.values.pattern !== undefined;
  // A search finds its drivers in driver_search (decision 042): their ids, names and creation
  // times, in name order, apart from the wide rows of drivers. The page's rows are then read from
  // drivers by id.
  const source = searched ? driverSearch : drivers;
  const conditions: SQL[] = [driverScope(scoped, { deleted: plan.deleted }, source)];
  if (searched) {
    // The kept search text, which driver_search_text_idx indexes. It is lowered already, so LIKE on
    // the lowered pattern: ILIKE folds both sides again, a sixth more of the search's time.
    // A phone in any form (drivers_phone_key_idx), and a vehicle number in any spacing (the vehicle
    // they drive now, vehicles_search_idx), beside the text as typed.
    conditions.push(
      or(
        sql`${driverSearch.searchText} like '%' || lower(${values.pattern}) || '%'`,
        plan.values.phone !== undefined
          ? sql`${driverSearch.id} = any(array(select d.id from drivers d where phone_key(d.phone_number) = ${values.phone}))`
          : undefined,
        plan.values.registration !== undefined
          ? sql`${driverSearch.id} = any(array(select v.driver_id from vehicles v
              where v.driver_id is not null and v.search_text like '%' || lower(${values.registration}) || '%'))`
          : undefined,
      )!,
    );
  }
  // The filters read the driver's own row; for a search, the one of each match.
  const onDriver = (condition: SQL) =>
    searched
      ? sql`exists (select 1 from ${drivers} where ${drivers.id} = ${driverSearch.id} and ${condition})`
      : condition;
  if (plan.compliance)
    conditions.push(onDriver(complianceCondition(plan.compliance, values.today, values.figures)));
  if (plan.remedial) conditions.push(onDriver(remedialDue(values.cutoffs, values.quarter)));
  const filter = and(...conditions);
  const { sort } = plan;
  const parts = driverKey(source, sort.field);
  const where = and(filter, plan.after ? afterKey(parts, sort.order, [values.k0, values.k1]) : undefined);
  // A search's first page reads its matches once, for both the page and their count (`counted`).
  const counted = searched && !plan.after;
  const { page, fields } =
    // With a search, the trigram index finds the few matching rows first, whoever the caller.
    role === 'city_dealer' && !searched
      ? selectDealerPage(db, scoped, where, plan.size, sort)
      : selectPlainPage(db, source, where, plan.size, sort, counted ? 'counted' : searched ? 'ids' : 'none');
  // Counted on the first page only (a search's by its page): the next pages' cursors carry it on.
  const total =
    plan.after?.t !== undefined || counted
      ? null
      : plan.kept
        ? driverScopeCount(db, scoped, { deleted: plan.deleted })
        : cappedCountQuery(db, source, filter);
  // More matches than are counted: their first page is read as any other search's.
  const beyondCount = counted ? selectPlainPage(db, source, where, plan.size, sort, 'ids') : null;
  return {
    page,
    withDocuments: withMandatoryDocuments(page),
    fields,
    total,
    // Apart, as queryShapes keeps only the queries it is answered at the top.
    beyondCount: beyondCount && withMandatoryDocuments(beyondCount.page),
    beyondCountFields: beyondCount?.fields ?? null,
  };
}

/**
 * A list page's queries, as the API runs them (findDrivers builds them once per shape), for the
 * benchmark to EXPLAIN.
 */
export function buildDriverListQueries(db: DbExecutor, caller: ScopeCaller, options: DriverListOptions) {
  const plan = driverListPlan(caller, options);
  return driverListQueries(db, caller.role, plan, plan.values);
}

const driverListShapes = queryShapes();
const readTotal = rowReader({ total: count() });

/**
 * The drivers of a page, in the list's order, as a subquery: the franchise's name is joined to the
 * page's rows only, after the limit, not to every row matching a search before it is sorted.
 *
 * A search first finds the page's ids (`ids`) among its matches, which are sorted whole, reading
 * only their ids and sort keys; the page's rows are then read by id. Sorting the 2,583 matches of
 * a common surname as whole rows, their sort keys built for each, took a fifth longer.
 */
function pageRows(
  db: DbExecutor,
  where: SQL | undefined,
  size: number,
  sort: { field: DriverSort; order: SortOrder },
  ids?: SQL,
) {
  const order = orderByKey(driverKey(drivers, sort.field), sort.order);
  return db
    .select({ ...driverBaseColumns, sortKey: keyColumn(driverKey(drivers, sort.field)).as('sort_key') })
    .from(drivers)
    .where(ids ? sql`${drivers.id} in (${ids})` : where)
    .orderBy(...order)
    .limit(pageLimit(size))
    .as('scoped');
}

/**
 * How a plain page finds its rows: walking the sort's index (`none`), or, for a search, finding
 * the page's ids among the matches first (`ids`); `counted` reads the matches once (up to one more
 * than LIST_TOTAL_CAP) for both the page's ids and their count, which the page answers as
 * `matches` on each row. A common surname's 2,583 matches took about 5 ms to read in PostgreSQL,
 * and the page and its count read them twice.
 */
type SearchPath = 'none' | 'ids' | 'counted';

/** What a page answers of pageRows' rows, with the franchise's name. */
function pageFields(scoped: ReturnType<typeof pageRows>) {
  return {
    id: scoped.id,
    name: scoped.name,
    email: scoped.email,
    phoneNumber: scoped.phoneNumber,
    country: scoped.country,
    state: scoped.state,
    franchiseId: scoped.franchiseId,
    carModel: scoped.carModel,
    vehicleNumber: scoped.vehicleNumber,
    carType: scoped.carType,
    lat: scoped.lat,
    long: scoped.long,
    positionAt: scoped.positionAt,
    createdAt: scoped.createdAt,
    deletedAt: scoped.deletedAt,
    franchiseName,
    sortKey: sql<unknown[]>`${scoped.sortKey}`,
  };
}

/**
 * A page of every driver matching `where`: found on `source` alone (drivers by the sort's index,
 * or driver_search by its trigram index for a search), then given its franchises' names. Joined
 * before the limit, an embedded database joined all 2,500 drivers of a common surname to the
 * franchises before sorting them: 100 ms of a 104 ms search.
 */
function selectPlainPage(
  db: DbExecutor,
  source: typeof drivers | typeof driverSearch,
  where: SQL | undefined,
  size: number,
  sort: { field: DriverSort; order: SortOrder },
  search: SearchPath,
) {
  const matching =
    search === 'counted'
      ? db.$with('matching').as(
          db
            .select({ id: source.id, name: source.name, createdAt: source.createdAt })
            .from(source)
            .where(where)
            .limit(LIST_TOTAL_CAP + 1),
        )
      : null;
  const ids = matching
    ? db
        .select({ id: matching.id })
        .from(matching)
        .orderBy(...orderByKey(driverKey(matching, sort.field), sort.order))
        .limit(pageLimit(size))
        .getSQL()
    : search === 'ids'
      ? db
          .select({ id: source.id })
          .from(source)
          .where(where)
          .orderBy(...orderByKey(driverKey(source, sort.field), sort.order))
          .limit(pageLimit(size))
          .getSQL()
      : undefined;
  const scoped = pageRows(db, where, size, sort, ids);
  const fields = {
    ...pageFields(scoped),
    ...(matching ? { matches: sql<number>`(select count(*) from ${matching})`.mapWith(Number) } : {}),
  };
  const page = (matching ? db.with(matching) : db)
    .select(fields)
    .from(scoped)
    .leftJoin(franchise, eq(franchise.id, scoped.franchiseId))
    .orderBy(...orderByKey(driverKey(scoped, sort.field), sort.order))
    .limit(pageLimit(size));
  return { page, fields };
}

/**
 * A city dealer's page, driven by its franchises: the first rows of each franchise in the list's
 * order (drivers_franchise_name_idx, drivers_franchise_created_idx), then the first of those. For
 * the plain query PostgreSQL walks drivers_name_idx keeping the dealer's rows, which reads the whole
 * table when the dealer has few drivers; this reads at most (franchises x page size) rows, however
 * large the table. `where` (the scope included) still applies to every row.
 */
function selectDealerPage(
  db: DbExecutor,
  caller: ScopeCaller,
  where: SQL | undefined,
  size: number,
  sort: { field: DriverSort; order: SortOrder },
) {
  const scoped = pageRows(db, and(eq(drivers.franchiseId, franchise.id), where), size, sort);
  const fields = pageFields(scoped);
  const page = db
    .select(fields)
    .from(franchise)
    .crossJoinLateral(scoped)
    .where(and(eq(franchise.dealerId, caller.id), eq(franchise.role, 'franchise')))
    .orderBy(...orderByKey(driverKey(scoped, sort.field), sort.order))
    .limit(pageLimit(size));
  return { page, fields };
}

/** A page of the drivers a caller may see, in the chosen order, with the cursor of the next page. */
export async function findDrivers(db: Db, caller: ScopeCaller, options: DriverListOptions) {
  refuseNul('q', options.q);
  const plan = driverListPlan(caller, options);
  const figures = await figuresInEffect(db);
  if (options.compliance) plan.values.figures = await figuresByStateJson(db);
  if (options.remedial) {
    plan.values.cutoffs = JSON.stringify(Object.fromEntries(await remedialCutoffs(db, [...STATES])));
  }
  const { withDocuments, fields, total, beyondCount, beyondCountFields } = driverListShapes(
    plan.shapeName,
    plan.values,
    (values) => driverListQueries(db, caller.role, plan, values),
  );
  // Read with each field's decoder found once (db/row-reader.ts), as Drizzle would answer them,
  // and each driver's mandatory documents with its row. The count runs only if it is awaited.
  type Row = DriverPageRow & { documents: MandatoryDocuments | string; matches?: number };
  const readPage = (page: { withDocuments: typeof withDocuments; fields: typeof fields }) =>
    rowReader({ ...page.fields, documents: sql<MandatoryDocuments | string>`` })<Row>(db, page.withDocuments);
  let rows: Row[];
  let listTotal: ListTotal;
  if (beyondCount) {
    // A search's first page, its matches counted in the same statement (up to the cap + 1).
    rows = await readPage({ withDocuments, fields });
    const matches = rows[0]?.matches ?? 0;
    if (matches > LIST_TOTAL_CAP && beyondCountFields)
      rows = await readPage({ withDocuments: beyondCount, fields: beyondCountFields });
    listTotal = toListTotal([{ total: matches }]);
  } else {
    ({ rows, listTotal } = await pageWithTotal(
      readPage({ withDocuments, fields }),
      total && { then: (done, fail) => readTotal<{ total: number }>(db, total).then(done, fail) },
      { limit: options.limit, kept: plan.kept, after: plan.after },
    ));
  }
  const { shown, nextCursor } = sortedPage(rows, options.limit, plan.sort, withTotal({}, listTotal));
  const complianceOfRow = complianceReader(figures);
  const withCompliance = shown.map((row) => ({
    ...toDriver(row),
    compliance: complianceOfRow(row.documents, row.state),
  }));
  return { drivers: withCompliance, nextCursor, ...listTotal };
}
