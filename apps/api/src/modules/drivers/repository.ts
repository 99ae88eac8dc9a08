import { and, count, desc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import {
  CAR_TYPES,
  DOCUMENT_KEYS,
  LIST_TOTAL_CAP,
  STATES,
  type CarType,
  type DocumentKey,
  type State,
} from '@bmet/shared/constants';
import { documentExpires } from '@bmet/shared/document-rules';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Driver, DriverDocument, RatingEntry } from '@bmet/shared/schemas/driver';
import { DEFAULT_ORDERS, DRIVER_SORTS, resolveSort, type SortOrder } from '@bmet/shared/schemas/sort';
import type { Db, DbExecutor } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { queryShapes } from '../../db/query-shapes';
import { rowReader } from '../../db/row-reader';
import { rowsOf } from '../../db/rows';
import {
  accounts,
  driverAverageRating,
  driverDocuments,
  driverRatings,
  drivers,
  trips,
} from '../../db/schema';
import { recordAudit, type Actor } from '../../infra/audit';
import {
  cappedCountQuery,
  cursorTimestampSchema,
  decodeCursor,
  escapeLikePattern,
  keysetPage,
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
import { driverScope, driverScopeCount, type DriverScopeCaller } from './scope';
import { documentLabel, stateLabel } from '@bmet/shared/labels';

/** The caller of a change: whose scope applies, and who the audit log names. */
export type Caller = DriverScopeCaller & { requestId: string };

const actorOf = (caller: Caller): Actor => ({ id: caller.id, requestId: caller.requestId });

const franchise = alias(accounts, 'franchise');
const reviewer = alias(accounts, 'reviewer');

const driverBaseColumns = {
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
const franchiseName = sql<string | null>`coalesce(${franchise.displayName}, ${franchise.email})`;
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
type DriverPageRow = DriverRecord & { sortKey: unknown[] };

const isState = (value: string | null): value is State => STATES.includes(value as State);
const isCarType = (value: string | null): value is CarType => CAR_TYPES.includes(value as CarType);

/** A stored driver as the contract shows it; values outside the known lists read as unknown. */
function toDriver(row: DriverRecord): Driver {
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

// ---------------------------------------------------------------------------------------------
// List

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

export type DriverListOptions = {
  q?: string;
  limit: number;
  cursor?: string;
  deleted?: boolean;
  compliance?: 'compliant' | 'not_compliant';
  sort?: DriverSort;
  order?: SortOrder;
};

/** The values a list page's queries take, each a parameter of the statement. */
type DriverListValues = {
  /** The city dealer or franchise whose drivers are listed. */
  callerId?: string;
  /** The search, as a LIKE pattern's escaped text. */
  pattern?: string;
  /** Today in India, for the compliance filter. */
  today?: string;
  /** The cursor's key, part by part. */
  k0?: unknown;
  k1?: unknown;
};

/**
 * What a list request asks for, apart from its values: the order, the cursor read, whether the
 * count is the kept one, and the name of its queries' shape (everything that changes their text).
 */
function driverListPlan(caller: DriverScopeCaller, options: DriverListOptions) {
  const sort = resolveSort(DRIVER_SORTS, DEFAULT_ORDERS.drivers, options);
  const after = options.cursor
    ? decodeSortedCursor(options.cursor, sort, driverKey(drivers, sort.field))
    : null;
  // Unsearched and unfiltered, the count is the one the database keeps, exact; otherwise it stops
  // at the cap.
  const kept = !options.q && !options.compliance;
  const size = options.limit + 1;
  const values: DriverListValues = {};
  if (caller.role !== 'admin') values.callerId = caller.id;
  if (options.q) values.pattern = escapeLikePattern(options.q);
  if (options.compliance) values.today = indianToday();
  if (after) [values.k0, values.k1] = after.k;
  const shapeName = [
    caller.role,
    sort.field,
    sort.order,
    options.q ? 'q' : '',
    options.compliance ?? '',
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
  };
}
type DriverListPlan = ReturnType<typeof driverListPlan>;

/**
 * The two queries of a list page: the page itself (keyset on the sort's key, one row more than
 * asked to tell whether another page follows) and the count of everything matching the filter,
 * built from `values` only (placeholders when queryShapes builds a shape).
 */
function driverListQueries(
  db: DbExecutor,
  role: DriverScopeCaller['role'],
  plan: DriverListPlan,
  values: DriverListValues,
) {
  const scoped = { id: values.callerId!, role };
  const conditions: SQL[] = [driverScope(scoped, { deleted: plan.deleted })];
  if (plan.values.pattern !== undefined) {
    // The kept search text, which drivers_search_idx indexes. It is lowered already, so LIKE on
    // the lowered pattern: ILIKE folds both sides again, a sixth more of the search's time.
    conditions.push(sql`${drivers.searchText} like '%' || lower(${values.pattern}) || '%'`);
  }
  if (plan.compliance) conditions.push(complianceCondition(plan.compliance, values.today));
  const filter = and(...conditions);
  const { sort } = plan;
  const parts = driverKey(drivers, sort.field);
  const where = and(filter, plan.after ? afterKey(parts, sort.order, [values.k0, values.k1]) : undefined);
  const searched = plan.values.pattern !== undefined;
  // A search's first page reads its matches once, for both the page and their count (`counted`).
  const counted = searched && !plan.after;
  const { page, fields } =
    // With a search, the trigram index finds the few matching rows first, whoever the caller.
    role === 'city_dealer' && !searched
      ? selectDealerPage(db, scoped, where, plan.size, sort)
      : selectPlainPage(db, where, plan.size, sort, counted ? 'counted' : searched ? 'ids' : 'none');
  // Counted on the first page only (a search's by its page): the next pages' cursors carry it on.
  const total =
    plan.after?.t !== undefined || counted
      ? null
      : plan.kept
        ? driverScopeCount(db, scoped, { deleted: plan.deleted })
        : cappedCountQuery(db, drivers, filter);
  // More matches than are counted: their first page is read as any other search's.
  const beyondCount = counted ? selectPlainPage(db, where, plan.size, sort, 'ids') : null;
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
export function buildDriverListQueries(
  db: DbExecutor,
  caller: DriverScopeCaller,
  options: DriverListOptions,
) {
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
 * A page of every driver matching `where`: found on drivers alone (by the sort's index, or by the
 * trigram index for a search), then given its franchises' names. Joined before the limit, an
 * embedded database joined all 2,500 drivers of a common surname to the franchises before sorting
 * them: 100 ms of a 104 ms search.
 */
function selectPlainPage(
  db: DbExecutor,
  where: SQL | undefined,
  size: number,
  sort: { field: DriverSort; order: SortOrder },
  search: SearchPath,
) {
  const matching =
    search === 'counted'
      ? db.$with('matching').as(
          db
            .select({ id: drivers.id, name: drivers.name, createdAt: drivers.createdAt })
            .from(drivers)
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
          .select({ id: drivers.id })
          .from(drivers)
          .where(where)
          .orderBy(...orderByKey(driverKey(drivers, sort.field), sort.order))
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
  caller: DriverScopeCaller,
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
export async function findDrivers(db: Db, caller: DriverScopeCaller, options: DriverListOptions) {
  refuseNul('q', options.q);
  const plan = driverListPlan(caller, options);
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
  const complianceOfRow = complianceReader();
  const withCompliance = shown.map((row) => ({
    ...toDriver(row),
    compliance: complianceOfRow(row.documents),
  }));
  return { drivers: withCompliance, nextCursor, ...listTotal };
}

// ---------------------------------------------------------------------------------------------
// One driver

/** A driver in the caller's scope (active ones unless `deleted`), or null. */
export async function findDriver(
  db: DbExecutor,
  caller: DriverScopeCaller,
  id: string,
  options: { deleted?: boolean } = {},
): Promise<Driver | null> {
  const [row] = await selectDrivers(db)
    .where(and(eq(drivers.id, id), driverScope(caller, options)))
    .limit(1);
  return row ? toDriver(row) : null;
}

/** Like findDriver, but a driver outside the caller's scope is a 404, as if it did not exist. */
export async function getDriver(db: DbExecutor, caller: DriverScopeCaller, id: string): Promise<Driver> {
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
async function lockDriver(tx: DbExecutor, caller: DriverScopeCaller, id: string, deleted = false) {
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
export async function softDeleteDriver(db: Db, caller: Caller, id: string): Promise<boolean> {
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
export async function restoreDriver(db: Db, caller: Caller, id: string): Promise<Driver | null> {
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
  caller: Caller,
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

// ---------------------------------------------------------------------------------------------
// Documents

const documentColumns = {
  key: driverDocuments.key,
  status: driverDocuments.status,
  objectKey: driverDocuments.objectKey,
  contentType: driverDocuments.contentType,
  size: driverDocuments.size,
  uploadedAt: driverDocuments.uploadedAt,
  reviewedAt: driverDocuments.reviewedAt,
  reviewedBy: driverDocuments.reviewedBy,
  rejectionReason: driverDocuments.rejectionReason,
  expiresOn: driverDocuments.expiresOn,
  reviewerName: sql<string | null>`coalesce(${reviewer.displayName}, ${reviewer.email})`,
};

function toDocument(key: DocumentKey, row: DocumentRecord | undefined): DriverDocument {
  return {
    key,
    label: documentLabel(key),
    status: row?.status ?? 'not_submitted',
    hasImage: Boolean(row?.objectKey),
    contentType: row?.objectKey ? row.contentType : null,
    uploadedAt: row?.uploadedAt?.toISOString() ?? null,
    reviewedAt: row?.reviewedAt?.toISOString() ?? null,
    reviewedBy: row?.reviewedBy ? { id: row.reviewedBy, name: row.reviewerName ?? '' } : null,
    rejectionReason: row?.rejectionReason ?? null,
    expires: documentExpires(key),
    expiresOn: row?.expiresOn ?? null,
  };
}

function selectDocuments(db: DbExecutor, driverId: string, key?: DocumentKey) {
  return db
    .select(documentColumns)
    .from(driverDocuments)
    .leftJoin(reviewer, eq(reviewer.id, driverDocuments.reviewedBy))
    .where(and(eq(driverDocuments.driverId, driverId), key ? eq(driverDocuments.key, key) : undefined));
}

type DocumentRecord = Awaited<ReturnType<typeof selectDocuments>>[number];

/** The ten documents of a driver in the spec's order, 'not_submitted' where nothing was sent. */
export async function findDriverDocuments(db: DbExecutor, driverId: string): Promise<DriverDocument[]> {
  const rows = await selectDocuments(db, driverId);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return DOCUMENT_KEYS.map((key) => toDocument(key, byKey.get(key)));
}

export async function findDriverDocument(
  db: DbExecutor,
  driverId: string,
  key: DocumentKey,
): Promise<DriverDocument> {
  const [row] = await selectDocuments(db, driverId, key);
  return toDocument(key, row);
}

/** Where the image of a document is kept, with the type it was stored as; null when none. */
export async function findDocumentImage(db: DbExecutor, driverId: string, key: DocumentKey) {
  const [row] = await db
    .select({ objectKey: driverDocuments.objectKey, contentType: driverDocuments.contentType })
    .from(driverDocuments)
    .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)));
  return row?.objectKey ? { objectKey: row.objectKey, contentType: row.contentType } : null;
}

async function lockDocument(tx: DbExecutor, driverId: string, key: DocumentKey) {
  const [row] = await tx
    .select()
    .from(driverDocuments)
    .where(and(eq(driverDocuments.driverId, driverId), eq(driverDocuments.key, key)))
    .for('update');
  return row ?? null;
}

const reviewFields = (row: typeof driverDocuments.$inferSelect | null) => ({
  status: row?.status ?? 'not_submitted',
  reviewedBy: row?.reviewedBy ?? null,
  reviewedAt: row?.reviewedAt ?? null,
  rejectionReason: row?.rejectionReason ?? null,
  expiresOn: row?.expiresOn ?? null,
});

const imageFields = (row: typeof driverDocuments.$inferSelect | null) => ({
  objectKey: row?.objectKey ?? null,
  contentType: row?.contentType ?? null,
  size: row?.size ?? null,
  uploadedAt: row?.uploadedAt ?? null,
});

/**
 * Records a new image of a document: submitted for review again, the previous review cleared.
 * `storeImage` writes the bytes to the object store inside the transaction, after the rows: a
 * failed write rolls the rows back, and a failed row write leaves the previous image untouched.
 * Answers null when the driver is not in the caller's scope, else the document and the object
 * key of the previous image when it was replaced by one under another key.
 */
export async function saveDocumentImage(
  db: Db,
  caller: Caller,
  input: {
    driverId: string;
    key: DocumentKey;
    objectKey: string;
    contentType: string;
    size: number;
    storeImage: () => Promise<void>;
  },
): Promise<{ document: DriverDocument; replacedObjectKey: string | null } | null> {
  return db.transaction(async (tx) => {
    if (!(await lockDriver(tx, caller, input.driverId))) return null;
    const before = await lockDocument(tx, input.driverId, input.key);
    const image = {
      objectKey: input.objectKey,
      contentType: input.contentType,
      size: input.size,
      uploadedAt: new Date(),
    };
    // A new image is a new document: its expiry is entered again when it is reviewed.
    const review = {
      status: 'submitted' as const,
      reviewedBy: null,
      reviewedAt: null,
      rejectionReason: null,
      expiresOn: null,
    };
    await tx
      .insert(driverDocuments)
      .values({ driverId: input.driverId, key: input.key, ...image, ...review })
      .onConflictDoUpdate({
        target: [driverDocuments.driverId, driverDocuments.key],
        set: { ...image, ...review },
      });
    await recordAudit(tx, actorOf(caller), {
      action: 'upload',
      resource: 'driver-documents',
      resourceId: `${input.driverId}/${input.key}`,
      before: { ...imageFields(before), ...reviewFields(before) },
      after: { ...image, ...review },
    });
    await input.storeImage();
    const previous = before?.objectKey ?? null;
    return {
      document: await findDriverDocument(tx, input.driverId, input.key),
      replacedObjectKey: previous && previous !== input.objectKey ? previous : null,
    };
  });
}

export type ReviewDecision = (
  { status: 'approved' } | { status: 'submitted' } | { status: 'rejected'; reason: string }
) & { expiresOn?: string };

const expiryProblem = (message: string) =>
  new AppError('VALIDATION', message, { fieldErrors: { expiresOn: [message] } });

/**
 * The expiry a review leaves on a document: the one given, else the one recorded. Only documents
 * that expire carry one, and an approval needs one that has not passed (a day in India).
 */
function expiryAfterReview(
  key: DocumentKey,
  decision: ReviewDecision,
  recorded: string | null,
): string | null {
  if (!documentExpires(key)) {
    if (decision.expiresOn) throw expiryProblem(m.documentDoesNotExpire());
    return null;
  }
  const expiresOn = decision.expiresOn ?? recorded;
  if (decision.status === 'approved') {
    if (!expiresOn) throw expiryProblem(m.expiryDateRequired());
    if (expiresOn < indianToday()) throw expiryProblem(m.expiryDatePassed());
  }
  return expiresOn;
}

/**
 * Records a review decision on a document that has an image: approved or rejected (with its
 * reason) by the caller now, or back to submitted (awaiting review, the previous review cleared).
 * Answers null when the driver is not in the caller's scope.
 */
export async function reviewDocument(
  db: Db,
  caller: Caller,
  input: { driverId: string; key: DocumentKey; decision: ReviewDecision },
): Promise<DriverDocument | null> {
  return db.transaction(async (tx) => {
    if (!(await lockDriver(tx, caller, input.driverId))) return null;
    const before = await lockDocument(tx, input.driverId, input.key);
    if (!before?.objectKey) throw new AppError('CONFLICT', m.documentHasNoImage());
    const { decision } = input;
    const expiresOn = expiryAfterReview(input.key, decision, before.expiresOn);
    const after =
      decision.status === 'submitted'
        ? { status: decision.status, reviewedBy: null, reviewedAt: null, rejectionReason: null, expiresOn }
        : {
            status: decision.status,
            reviewedBy: caller.id,
            reviewedAt: new Date(),
            rejectionReason: decision.status === 'rejected' ? decision.reason : null,
            expiresOn,
          };
    await tx
      .update(driverDocuments)
      .set(after)
      .where(and(eq(driverDocuments.driverId, input.driverId), eq(driverDocuments.key, input.key)));
    await recordAudit(tx, actorOf(caller), {
      action: 'review',
      resource: 'driver-documents',
      resourceId: `${input.driverId}/${input.key}`,
      before: reviewFields(before),
      after,
    });
    return findDriverDocument(tx, input.driverId, input.key);
  });
}

// ---------------------------------------------------------------------------------------------
// Booking history and ratings: newest first, keyset on (created_at, id)

const timeCursorSchema = z.object({ at: cursorTimestampSchema, id: z.uuid() }).strict();

/** created_at to the microsecond, in UTC, for a cursor. */
const cursorTime = (column: typeof trips.createdAt | typeof driverRatings.createdAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

const timeKey = (row: { cursorAt: string; id: string }) => ({ at: row.cursorAt, id: row.id });

/**
 * A driver's booking history, newest first: its completed trips, and the entries of the driver
 * app's own history brought by the Firebase import (driver_booking_history). An imported entry
 * that repeats a completed trip (same pick-up, destination and price) is shown once, as the trip.
 */
export async function findDriverHistory(
  db: DbExecutor,
  driverId: string,
  options: { limit: number; cursor?: string },
) {
  const before = options.cursor ? decodeCursor(options.cursor, timeCursorSchema) : null;
  const after = (alias: string) =>
    before
      ? sql`(${sql.raw(alias)}.created_at, ${sql.raw(alias)}.id) < (${before.at}::timestamptz, ${before.id}::uuid)`
      : sql`true`;
  // Each side reads one page from its own index; the two pages are then merged.
  const rows = rowsOf(
    await db.execute(sql`
      select x.id, x.customer_name, x.pickup_location, x.destination_location, x.distance_km, x.price,
        to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date_time,
        to_char(x.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
      from (
        (select t.id, t.title as customer_name, t.pickup_location, t.destination_location, t.distance_km,
           t.price, t.created_at
         from trips t
         where t.driver_id = ${driverId} and t.status = 'completed' and ${after('t')}
         order by t.created_at desc, t.id desc limit ${options.limit + 1})
        union all
        (select h.id, h.customer_name, h.pickup_location, h.destination_location, h.distance_km, h.price,
           h.created_at
         from driver_booking_history h
         where h.driver_id = ${driverId} and ${after('h')}
           and not exists (select 1 from trips t where t.driver_id = h.driver_id and t.status = 'completed'
             and t.pickup_location is not distinct from h.pickup_location
             and t.destination_location is not distinct from h.destination_location
             and t.price is not distinct from h.price)
         order by h.created_at desc, h.id desc limit ${options.limit + 1})
      ) x
      order by x.created_at desc, x.id desc
      limit ${options.limit + 1}`),
  );
  const number = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const entries = rows.map((row) => ({
    id: String(row.id),
    customerName: text(row.customer_name),
    pickUpLocation: text(row.pickup_location),
    destinationLocation: text(row.destination_location),
    distance: number(row.distance_km),
    price: number(row.price),
    dateTime: String(row.date_time),
    cursorAt: String(row.cursor_at),
  }));
  const { shown, nextCursor } = keysetPage(entries, options.limit, timeKey);
  return { data: shown.map(({ cursorAt: _cursorAt, ...entry }) => entry), nextCursor };
}

/** The rating entries of a driver, newest first. */
export async function findDriverRatings(
  db: DbExecutor,
  driverId: string,
  options: { limit: number; cursor?: string },
) {
  const before = options.cursor ? decodeCursor(options.cursor, timeCursorSchema) : null;
  const rows = await db
    .select({
      id: driverRatings.id,
      customerName: driverRatings.customerName,
      description: driverRatings.description,
      rating: driverRatings.rating,
      createdAt: driverRatings.createdAt,
      cursorAt: cursorTime(driverRatings.createdAt),
    })
    .from(driverRatings)
    .where(
      and(
        eq(driverRatings.driverId, driverId),
        before
          ? sql`(${driverRatings.createdAt}, ${driverRatings.id}) < (${before.at}::timestamptz, ${before.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(driverRatings.createdAt), desc(driverRatings.id))
    .limit(options.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, options.limit, timeKey);
  const data: RatingEntry[] = shown.map((row) => ({
    id: row.id,
    customerName: row.customerName,
    description: row.description,
    // Only 1 to 5 is a rating; anything else stored by an old app shows as 'Not rated'.
    rating: row.rating !== null && row.rating >= 1 && row.rating <= 5 ? row.rating : null,
    date: row.createdAt.toISOString(),
  }));
  return { data, nextCursor };
}
