import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { STATES, type Language, type State } from '@bmet/shared/constants';
import { AppError, fieldError } from '@bmet/shared/errors';
import { grievanceStatusLabel } from '@bmet/shared/grievance-labels';
import {
  canStep,
  DUE_SOON_MS,
  grievanceClock,
  UNRESOLVED_STATUSES,
  type ComplainantKind,
  type GrievanceCategory,
  type GrievancePriority,
  type GrievanceStatus,
} from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type {
  CreateGrievanceBody,
  Grievance,
  GrievanceEvent,
  grievanceListQuerySchema,
  UpdateGrievanceBody,
} from '@bmet/shared/schemas/grievance';
import { GRIEVANCE_SORTS } from '@bmet/shared/schemas/grievance';
import { resolveSort } from '@bmet/shared/schemas/sort';
import type { Db, DbExecutor } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { rowsOf } from '../../db/rows';
import { accounts, customers, drivers, grievanceEvents, grievances, trips } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import { cappedCountQuery, escapeLikePattern, pageWithTotal, withTotal } from '../../lib/paging';
import {
  driverScope,
  aboutDriverScope,
  tripScope,
  type ChangeCaller,
  type ScopeCaller,
} from '../../lib/scope';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { refuseNul } from '../../lib/text';
import { deadlineOf } from './deadlines';

/**
 * Grievances (issue: a grievance desk with its deadline). A grievance is in the scope of the driver
 * it is about, as that driver's trips are: an admin sees all; a city dealer and a franchise those
 * about their drivers (a trip's grievance is about its driver). One about nobody's driver (a
 * customer alone, a trip without a driver) is the admins'.
 */

const driver = alias(drivers, 'grievance_driver');
const franchise = alias(accounts, 'grievance_franchise');
const customer = alias(customers, 'grievance_customer');
const loggedBy = alias(accounts, 'grievance_logged_by');

const columns = {
  id: grievances.id,
  number: grievances.number,
  status: grievances.status,
  category: grievances.category,
  priority: grievances.priority,
  complainantKind: grievances.complainantKind,
  complainantName: grievances.complainantName,
  complainantPhone: grievances.complainantPhone,
  complainantEmail: grievances.complainantEmail,
  complainantLanguage: grievances.complainantLanguage,
  tripId: grievances.tripId,
  driverId: grievances.driverId,
  driverName: driver.name,
  customerId: grievances.customerId,
  customerName: customer.name,
  franchiseName: sql<string | null>`coalesce(${franchise.displayName}, ${franchise.email})`,
  state: grievances.state,
  description: grievances.description,
  receivedAt: grievances.receivedAt,
  dueAt: grievances.dueAt,
  resolution: grievances.resolution,
  resolvedAt: grievances.resolvedAt,
  loggedByName: sql<string | null>`coalesce(${loggedBy.displayName}, ${loggedBy.email})`,
  createdAt: grievances.createdAt,
  updatedAt: grievances.updatedAt,
};
type GrievanceRow = Awaited<ReturnType<typeof selectGrievances>>[number];

function selectGrievances<Extra extends Record<string, SQL>>(db: DbExecutor, extra?: Extra) {
  return db
    .select({ ...columns, ...(extra as Extra) })
    .from(grievances)
    .leftJoin(driver, eq(driver.id, grievances.driverId))
    .leftJoin(franchise, eq(franchise.id, driver.franchiseId))
    .leftJoin(customer, eq(customer.id, grievances.customerId))
    .leftJoin(loggedBy, eq(loggedBy.id, grievances.loggedBy));
}

/** The grievances a caller may see and work, as a condition on `grievances`. */
export function grievanceScope(caller: ScopeCaller): SQL | undefined {
  return aboutDriverScope(caller, grievances.driverId);
}

export function toGrievance(row: GrievanceRow, now = new Date()): Grievance {
  const status = row.status as GrievanceStatus;
  return {
    id: row.id,
    number: row.number,
    status,
    category: row.category as GrievanceCategory,
    priority: row.priority as GrievancePriority,
    complainant: {
      kind: row.complainantKind as ComplainantKind,
      name: row.complainantName,
      phone: row.complainantPhone,
      email: row.complainantEmail,
      language: row.complainantLanguage === 'hi' ? 'hi' : 'en',
    },
    tripId: row.tripId,
    driverId: row.driverId,
    driverName: row.driverName,
    customerId: row.customerId,
    customerName: row.customerName,
    franchiseName: row.franchiseName,
    state: (STATES as readonly string[]).includes(row.state ?? '') ? (row.state as State) : null,
    description: row.description,
    receivedAt: row.receivedAt.toISOString(),
    dueAt: row.dueAt.toISOString(),
    clock: grievanceClock(status, row.dueAt, now),
    resolution: row.resolution,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedInTime: row.resolvedAt ? row.resolvedAt.getTime() <= row.dueAt.getTime() : null,
    loggedByName: row.loggedByName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------------------------------------
// The desk's list

export type GrievanceListOptions = z.output<typeof grievanceListQuerySchema>;

const unresolved = inArray(grievances.status, [...UNRESOLVED_STATUSES]);

/** Where a grievance stands against its deadline now, as a condition. */
function clockCondition(clock: GrievanceListOptions['clock'], now: Date): SQL | undefined {
  const soon = new Date(now.getTime() + DUE_SOON_MS);
  switch (clock) {
    case undefined:
      return undefined;
    case 'overdue':
      return and(unresolved, sql`${grievances.dueAt} < ${now.toISOString()}::timestamptz`);
    case 'due_soon':
      return and(
        unresolved,
        sql`${grievances.dueAt} >= ${now.toISOString()}::timestamptz`,
        sql`${grievances.dueAt} <= ${soon.toISOString()}::timestamptz`,
      );
    case 'on_time':
      return and(unresolved, sql`${grievances.dueAt} > ${soon.toISOString()}::timestamptz`);
  }
}

/** The list's search: a grievance's number as quoted, or words of its complainant and description. */
function searchCondition(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const words = q.toLowerCase().split(/\s+/).filter(Boolean);
  const digits = q.replace(/\D/g, '');
  return sql`(${sql.join(
    words.map((word) => sql`${grievances.searchText} like '%' || ${escapeLikePattern(word)} || '%'`),
    sql` and `,
  )}${digits.length >= 6 ? sql` or ${grievances.searchText} like '%' || ${digits.slice(-10)} || '%'` : sql``})`;
}

function grievanceKey(field: (typeof GRIEVANCE_SORTS)[number]): KeyPart[] {
  const id: KeyPart = { expression: grievances.id, type: 'uuid' };
  return field === 'dueAt'
    ? [{ expression: grievances.dueAt, type: 'timestamptz' }, id]
    : [{ expression: grievances.receivedAt, type: 'timestamptz' }, id];
}

/** A page of the caller's grievances in the sort's order (soonest deadline first by default). */
export async function findGrievances(db: Db, caller: ScopeCaller, options: GrievanceListOptions) {
  refuseNul('q', options.q);
  const now = new Date();
  const sort = resolveSort(GRIEVANCE_SORTS, 'asc', options);
  const key = grievanceKey(sort.field);
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, key) : null;
  const filter = and(
    grievanceScope(caller),
    searchCondition(options.q),
    options.status === 'unresolved'
      ? unresolved
      : options.status
        ? eq(grievances.status, options.status)
        : undefined,
    options.category ? eq(grievances.category, options.category) : undefined,
    options.priority ? eq(grievances.priority, options.priority) : undefined,
    clockCondition(options.clock, now),
    options.driverId ? eq(grievances.driverId, options.driverId) : undefined,
    options.tripId ? eq(grievances.tripId, options.tripId) : undefined,
  );
  const page = selectGrievances(db, { sortKey: keyColumn(key) })
    .where(and(filter, after ? afterKey(key, sort.order, after.k) : undefined))
    .orderBy(...orderByKey(key, sort.order))
    .limit(pageLimit(options.limit + 1));
  const total = after?.t !== undefined ? null : cappedCountQuery(db, grievances, filter);
  const { rows, listTotal } = await pageWithTotal(page, total, {
    limit: options.limit,
    kept: false,
    after,
  });
  const { shown, nextCursor } = sortedPage(rows, options.limit, sort, withTotal({}, listTotal));
  return {
    grievances: shown.map(({ sortKey: _sortKey, ...row }) => toGrievance(row, now)),
    nextCursor,
    ...listTotal,
  };
}

/** What needs the caller's attention now: the navigation's count. */
export async function summariseGrievances(db: DbExecutor, caller: ScopeCaller) {
  const now = new Date();
  const soon = new Date(now.getTime() + DUE_SOON_MS);
  const [row] = await db
    .select({
      unresolved: sql<number>`count(*)::int`,
      overdue: sql<number>`(count(*) filter (where ${grievances.dueAt} < ${now.toISOString()}::timestamptz))::int`,
      dueSoon: sql<number>`(count(*) filter (where ${grievances.dueAt} >= ${now.toISOString()}::timestamptz and ${grievances.dueAt} <= ${soon.toISOString()}::timestamptz))::int`,
    })
    .from(grievances)
    .where(and(unresolved, grievanceScope(caller)));
  return { unresolved: row?.unresolved ?? 0, dueSoon: row?.dueSoon ?? 0, overdue: row?.overdue ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// One grievance

/** At most this many steps and comments come with a grievance, oldest first. */
export const GRIEVANCE_EVENTS_LIMIT = 500;

const eventBy = alias(accounts, 'grievance_event_by');

async function findEvents(db: DbExecutor, id: string): Promise<GrievanceEvent[]> {
  const rows = await db
    .select({
      id: grievanceEvents.id,
      kind: grievanceEvents.kind,
      status: grievanceEvents.status,
      text: grievanceEvents.text,
      byName: sql<string | null>`coalesce(${eventBy.displayName}, ${eventBy.email})`,
      at: grievanceEvents.at,
    })
    .from(grievanceEvents)
    .leftJoin(eventBy, eq(eventBy.id, grievanceEvents.by))
    .where(eq(grievanceEvents.grievanceId, id))
    .orderBy(asc(grievanceEvents.id))
    .limit(GRIEVANCE_EVENTS_LIMIT);
  return rows.map((row) => ({
    id: String(row.id),
    kind: row.kind as GrievanceEvent['kind'],
    status: (row.status as GrievanceStatus | null) ?? null,
    text: row.text,
    byName: row.byName,
    at: row.at.toISOString(),
  }));
}

export async function findGrievance(db: DbExecutor, caller: ScopeCaller, id: string) {
  const [row] = await selectGrievances(db).where(and(eq(grievances.id, id), grievanceScope(caller)));
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  return { ...toGrievance(row), events: await findEvents(db, id) };
}

async function findGrievanceRecord(db: DbExecutor, caller: ScopeCaller, id: string): Promise<Grievance> {
  const [row] = await selectGrievances(db).where(and(eq(grievances.id, id), grievanceScope(caller)));
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  return toGrievance(row);
}

// ---------------------------------------------------------------------------------------------
// Logging one

/** A moment this far ahead of the server's clock is still "now" (a staff member's clock runs fast). */
const CLOCK_SKEW_MS = 2 * 60_000;

type Subject = {
  tripId: string | null;
  driverId: string | null;
  customerId: string | null;
  state: string | null;
};

/**
 * What a grievance is about, checked against the caller's scope: a trip (and so its driver and
 * customer), a driver, a customer (admins only: the others see no customers). Staff other than
 * admins must name a trip or a driver of theirs, so that the grievance lands in their scope.
 */
async function resolveSubject(
  db: DbExecutor,
  caller: ScopeCaller,
  body: CreateGrievanceBody,
): Promise<Subject> {
  let driverId = body.driverId ?? null;
  let customerId = body.customerId ?? null;
  const tripId = body.tripId ?? null;
  if (tripId) {
    const [trip] = await db
      .select({ driverId: trips.driverId, customerId: trips.customerId })
      .from(trips)
      .where(and(eq(trips.id, tripId), tripScope(caller)));
    if (!trip) throw fieldError('tripId', m.grievanceTripUnknown());
    driverId = trip.driverId ?? driverId;
    customerId = trip.customerId ?? customerId;
  }
  let state: string | null = null;
  if (driverId) {
    const [found] = await db
      .select({ state: drivers.state })
      .from(drivers)
      .where(and(eq(drivers.id, driverId), driverScope(caller)));
    if (!found) throw fieldError('driverId', m.grievanceDriverUnknown());
    state = found.state;
  }
  if (customerId && !tripId) {
    if (caller.role !== 'admin') throw fieldError('customerId', m.grievanceCustomerUnknown());
    const [found] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    if (!found) throw fieldError('customerId', m.grievanceCustomerUnknown());
  }
  if (caller.role !== 'admin' && !driverId) throw fieldError('driverId', m.grievanceSubjectRequired());
  return { tripId, driverId, customerId, state };
}

/** The lowercased text the desk's search reads: number, complainant and description, phone as digits. */
function searchTextOf(number: string, body: CreateGrievanceBody): string {
  const phone = (body.complainantPhone ?? '').replace(/\D/g, '');
  return [number, body.complainantName, phone, body.complainantEmail ?? '', body.description]
    .join(' ')
    .toLowerCase();
}

/** Logs a grievance from a call or a mail; audited, its first step recorded. */
export async function createGrievance(
  db: Db,
  caller: ChangeCaller,
  body: CreateGrievanceBody,
): Promise<Grievance> {
  const now = new Date();
  const receivedAt = body.receivedAt ? new Date(body.receivedAt) : now;
  if (receivedAt.getTime() > now.getTime() + CLOCK_SKEW_MS) {
    throw fieldError('receivedAt', m.grievanceReceivedInFuture());
  }
  const id = await db.transaction(async (tx) => {
    const subject = await resolveSubject(tx, caller, body);
    const dueAt = await deadlineOf(tx, subject.state, receivedAt);
    const [numbered] = rowsOf(
      await tx.execute(
        sql`select 'GR-' || to_char(now() at time zone 'Asia/Kolkata', 'YYYY') || '-' || lpad(nextval('grievance_number_seq')::text, 6, '0') as number`,
      ),
    );
    const number = String(numbered?.number);
    const values = {
      number,
      category: body.category,
      priority: body.priority ?? 'normal',
      complainantKind: body.complainantKind,
      complainantName: body.complainantName,
      complainantPhone: body.complainantPhone ?? null,
      complainantEmail: body.complainantEmail ?? null,
      complainantLanguage: (body.complainantLanguage ?? 'en') satisfies Language,
      ...subject,
      description: body.description,
      receivedAt,
      clockFrom: receivedAt,
      dueAt,
      searchText: searchTextOf(number, body),
      loggedBy: caller.id,
    };
    const [row] = await tx.insert(grievances).values(values).returning({ id: grievances.id });
    const created = row!.id;
    await tx
      .insert(grievanceEvents)
      .values({ grievanceId: created, kind: 'logged', status: 'open', by: caller.id });
    const { searchText: _searchText, ...audited } = values;
    await recordAudit(
      tx,
      { id: caller.id, requestId: caller.requestId },
      {
        action: 'create',
        resource: 'grievances',
        resourceId: created,
        before: null,
        after: { ...audited, status: 'open' },
      },
    );
    return created;
  });
  return findGrievanceRecord(db, caller, id);
}

// ---------------------------------------------------------------------------------------------
// Working one

/** What a change did, for the mails that follow it. */
export type GrievanceChange = { grievance: Grievance; resolved: boolean };

export async function updateGrievance(
  db: Db,
  caller: ChangeCaller,
  id: string,
  body: UpdateGrievanceBody,
): Promise<GrievanceChange> {
  const stepTo = body.status;
  if (!stepTo && !body.category && !body.priority) {
    throw new AppError('VALIDATION', m.grievanceNothingToChange());
  }
  let resolved = false;
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({
        status: grievances.status,
        category: grievances.category,
        priority: grievances.priority,
        state: grievances.state,
        dueAt: grievances.dueAt,
        resolution: grievances.resolution,
      })
      .from(grievances)
      .where(and(eq(grievances.id, id), grievanceScope(caller)))
      .for('update');
    if (!current) throw new AppError('NOT_FOUND', m.notFound());
    const now = new Date();
    const before: Record<string, unknown> = {};
    const after: Record<string, unknown> = {};
    const change: Partial<typeof grievances.$inferInsert> = { updatedAt: now };
    const from = current.status as GrievanceStatus;
    if (stepTo && stepTo !== from) {
      if (!canStep(from, stepTo)) {
        throw fieldError(
          'status',
          m.grievanceStepNotAllowed({ from: grievanceStatusLabel(from), to: grievanceStatusLabel(stepTo) }),
        );
      }
      change.status = stepTo;
      before.status = from;
      after.status = stepTo;
      if (stepTo === 'resolved') {
        if (!body.resolution) throw fieldError('resolution', m.grievanceResolutionRequired());
        change.resolution = body.resolution;
        change.resolvedAt = now;
        before.resolution = current.resolution;
        after.resolution = body.resolution;
        resolved = true;
      }
      if (stepTo === 'reopened') {
        // A complainant who comes back starts a new clock: the guidelines' 3 working days from now.
        change.clockFrom = now;
        change.dueAt = await deadlineOf(tx, current.state, now);
        change.resolvedAt = null;
        before.dueAt = current.dueAt.toISOString();
        after.dueAt = change.dueAt.toISOString();
      }
      await tx.insert(grievanceEvents).values({
        grievanceId: id,
        kind: 'status',
        status: stepTo,
        text: stepTo === 'resolved' ? body.resolution : (body.note ?? null),
        by: caller.id,
      });
    } else if (stepTo && stepTo === from && !body.category && !body.priority) {
      throw new AppError('VALIDATION', m.grievanceNothingToChange());
    }
    const changed: string[] = [];
    if (body.category && body.category !== current.category) {
      change.category = body.category;
      before.category = current.category;
      after.category = body.category;
      changed.push(`${current.category} → ${body.category}`);
    }
    if (body.priority && body.priority !== current.priority) {
      change.priority = body.priority;
      before.priority = current.priority;
      after.priority = body.priority;
      changed.push(`${current.priority} → ${body.priority}`);
    }
    if (changed.length) {
      await tx.insert(grievanceEvents).values({
        grievanceId: id,
        kind: 'changed',
        text: changed.join(', '),
        by: caller.id,
      });
    }
    if (Object.keys(after).length === 0) return;
    await tx.update(grievances).set(change).where(eq(grievances.id, id));
    await recordAudit(
      tx,
      { id: caller.id, requestId: caller.requestId },
      {
        action: 'update',
        resource: 'grievances',
        resourceId: id,
        before,
        after,
      },
    );
  });
  return { grievance: await findGrievanceRecord(db, caller, id), resolved };
}

/** A comment inside the team: never sent to the complainant. */
export async function addGrievanceComment(
  db: Db,
  caller: ChangeCaller,
  id: string,
  text: string,
): Promise<GrievanceEvent> {
  await findGrievanceRecord(db, caller, id);
  const [row] = await db
    .insert(grievanceEvents)
    .values({ grievanceId: id, kind: 'comment', text, by: caller.id })
    .returning({ id: grievanceEvents.id, at: grievanceEvents.at });
  const [by] = await db
    .select({ name: sql<string>`coalesce(${accounts.displayName}, ${accounts.email})` })
    .from(accounts)
    .where(eq(accounts.id, caller.id));
  return {
    id: String(row!.id),
    kind: 'comment',
    status: null,
    text,
    byName: by?.name ?? null,
    at: row!.at.toISOString(),
  };
}
