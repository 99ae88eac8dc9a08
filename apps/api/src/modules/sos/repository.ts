import { and, asc, eq, inArray, isNull, lt, ne, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import { AppError, fieldError } from '@bmet/shared/errors';
import { DESK_RULE_LIMITS } from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import { sosActionLabel, sosStatusLabel } from '@bmet/shared/sos-labels';
import {
  canTakeSosAction,
  type SosEscalation,
  type SosOutcome,
  type SosPerson,
  type SosSource,
  type SosStatus,
} from '@bmet/shared/sos-rules';
import {
  SOS_SORTS,
  type createSosBodySchema,
  type SosAlert,
  type sosListQuerySchema,
  type updateSosBodySchema,
} from '@bmet/shared/schemas/sos';
import { resolveSort } from '@bmet/shared/schemas/sort';
import type { Db, DbExecutor } from '../../db/client';
import { pageLimit } from '../../db/page-limit';
import { rowsOf } from '../../db/rows';
import { accounts, customers, drivers, sosAlerts, sosEvents, trips } from '../../db/schema';
import { driverAppActor, recordAudit } from '../../infra/audit';
import { notifyAboutDriver } from '../notifications/repository';
import { indianToday, istDayRange } from '../../lib/ist-days';
import { deskRulesInEffect, rulesIn } from '../grievances/desk-rules';
import { cappedCountQuery, pageWithTotal, withTotal } from '../../lib/paging';
import {
  driverScope,
  aboutDriverScope,
  tripScope,
  type ChangeCaller,
  type DriverPlacement,
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

/**
 * SOS alerts, in the scope of their driver as the driver's trips are: an admin sees all, a city
 * dealer and a franchise those of their drivers. One without a driver (a passenger's call about a
 * trip nobody drove) is the admins'.
 */

const driver = alias(drivers, 'sos_driver');
const franchise = alias(accounts, 'sos_franchise');
const trip = alias(trips, 'sos_trip');
const customer = alias(customers, 'sos_customer');
const raisedBy = alias(accounts, 'sos_raised_by');
const acknowledgedBy = alias(accounts, 'sos_acknowledged_by');
const resolvedBy = alias(accounts, 'sos_resolved_by');

const nameOf = (account: { displayName: AnyColumn; email: AnyColumn }) =>
  sql<string | null>`coalesce(${account.displayName}, ${account.email})`;

const columns = {
  id: sosAlerts.id,
  number: sosAlerts.number,
  status: sosAlerts.status,
  source: sosAlerts.source,
  person: sosAlerts.person,
  driverId: sosAlerts.driverId,
  driverName: driver.name,
  driverPhone: driver.phoneNumber,
  vehicleNumber: driver.vehicleNumber,
  franchiseName: sql<string | null>`coalesce(${franchise.displayName}, ${franchise.email})`,
  tripId: sosAlerts.tripId,
  customerName: sql<string | null>`coalesce(${customer.name}, ${trip.title})`,
  customerPhone: sql<string | null>`coalesce(${trip.phoneNumber}, ${customer.phoneNumber})`,
  lat: sosAlerts.lat,
  long: sosAlerts.long,
  positionAt: sosAlerts.positionAt,
  note: sosAlerts.note,
  raisedAt: sosAlerts.raisedAt,
  raisedByName: nameOf(raisedBy),
  acknowledgedAt: sosAlerts.acknowledgedAt,
  acknowledgedByName: nameOf(acknowledgedBy),
  reraisedAt: sosAlerts.reraisedAt,
  resolvedAt: sosAlerts.resolvedAt,
  resolvedByName: nameOf(resolvedBy),
  outcome: sosAlerts.outcome,
  outcomeNote: sosAlerts.outcomeNote,
  /** Where the driver stands in the hierarchy, for the streams' scope in memory. */
  franchiseId: driver.franchiseId,
  dealerId: sql<string | null>`case when ${franchise.role} = 'franchise' then ${franchise.dealerId} end`,
  driverDeletedAt: driver.deletedAt,
};

function selectAlerts<Extra extends Record<string, SQL>>(db: DbExecutor, extra?: Extra) {
  return db
    .select({ ...columns, ...(extra as Extra) })
    .from(sosAlerts)
    .leftJoin(driver, eq(driver.id, sosAlerts.driverId))
    .leftJoin(franchise, eq(franchise.id, driver.franchiseId))
    .leftJoin(trip, eq(trip.id, sosAlerts.tripId))
    .leftJoin(customer, eq(customer.id, trip.customerId))
    .leftJoin(raisedBy, eq(raisedBy.id, sosAlerts.raisedBy))
    .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, sosAlerts.acknowledgedBy))
    .leftJoin(resolvedBy, eq(resolvedBy.id, sosAlerts.resolvedBy));
}
type AlertRow = Awaited<ReturnType<typeof selectAlerts>>[number];

/** The alerts a caller may see and answer, as a condition on `sos_alerts`. */
export function sosScope(caller: ScopeCaller): SQL | undefined {
  return aboutDriverScope(caller, sosAlerts.driverId);
}

type Escalations = Map<string, SosAlert['escalations']>;

/** The escalations of some alerts, in one query. */
async function escalationsOf(db: DbExecutor, ids: string[]): Promise<Escalations> {
  const found: Escalations = new Map();
  if (ids.length === 0) return found;
  const by = alias(accounts, 'sos_escalated_by');
  const rows = await db
    .select({
      alertId: sosEvents.alertId,
      to: sosEvents.detail,
      note: sosEvents.note,
      byName: nameOf(by),
      at: sosEvents.at,
    })
    .from(sosEvents)
    .leftJoin(by, eq(by.id, sosEvents.by))
    .where(and(inArray(sosEvents.alertId, ids), eq(sosEvents.kind, 'escalated')))
    .orderBy(asc(sosEvents.id));
  for (const row of rows) {
    const list = found.get(row.alertId) ?? [];
    list.push({ to: row.to as SosEscalation, note: row.note, byName: row.byName, at: row.at.toISOString() });
    found.set(row.alertId, list);
  }
  return found;
}

export function toSosAlert(row: AlertRow, escalations: Escalations): SosAlert {
  return {
    id: row.id,
    number: row.number,
    status: row.status as SosStatus,
    source: row.source as SosSource,
    person: row.person as SosPerson,
    driverId: row.driverId,
    driverName: row.driverName,
    driverPhone: row.driverPhone,
    vehicleNumber: row.vehicleNumber,
    franchiseName: row.franchiseName,
    tripId: row.tripId,
    customerName: row.tripId ? row.customerName : null,
    customerPhone: row.tripId ? row.customerPhone : null,
    lat: row.lat,
    long: row.long,
    positionAt: row.positionAt?.toISOString() ?? null,
    note: row.note,
    raisedAt: row.raisedAt.toISOString(),
    raisedByName: row.raisedByName,
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    acknowledgedByName: row.acknowledgedByName,
    secondsToAcknowledge: row.acknowledgedAt
      ? Math.round((row.acknowledgedAt.getTime() - row.raisedAt.getTime()) / 100) / 10
      : null,
    reraisedAt: row.reraisedAt?.toISOString() ?? null,
    escalations: escalations.get(row.id) ?? [],
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    resolvedByName: row.resolvedByName,
    outcome: (row.outcome as SosOutcome | null) ?? null,
    outcomeNote: row.outcomeNote,
  };
}

/** An alert with where its driver stands, for the streams to decide in memory who is told. */
export type PlacedAlert = { alert: SosAlert; placement: DriverPlacement | null };

/** An alert by id, whoever asks (the streams filter by scope), or null. */
export async function findPlacedAlert(db: DbExecutor, id: string): Promise<PlacedAlert | null> {
  const [row] = await selectAlerts(db).where(eq(sosAlerts.id, id));
  if (!row) return null;
  const alert = toSosAlert(row, await escalationsOf(db, [id]));
  const placement = row.driverId
    ? { franchiseId: row.franchiseId, dealerId: row.dealerId, deletedAt: row.driverDeletedAt }
    : null;
  return { alert, placement };
}

/** Every alert not yet resolved in the caller's scope, oldest first: what a stream starts with. */
export async function findOpenAlerts(db: DbExecutor, caller: ScopeCaller): Promise<SosAlert[]> {
  const rows = await selectAlerts(db)
    .where(and(ne(sosAlerts.status, 'resolved'), sosScope(caller)))
    .orderBy(asc(sosAlerts.raisedAt), asc(sosAlerts.id))
    .limit(200);
  const escalations = await escalationsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toSosAlert(row, escalations));
}

export type SosListOptions = z.output<typeof sosListQuerySchema>;

/** A page of the caller's alerts: the open ones or the history, with filters, newest first by default. */
export async function findSosAlerts(db: Db, caller: ScopeCaller, options: SosListOptions) {
  const sort = resolveSort(SOS_SORTS, 'desc', options);
  const key: KeyPart[] = [
    { expression: sosAlerts.raisedAt, type: 'timestamptz' },
    { expression: sosAlerts.id, type: 'uuid' },
  ];
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, key) : null;
  const filter = and(
    sosScope(caller),
    options.status === 'open' ? ne(sosAlerts.status, 'resolved') : undefined,
    options.status === 'resolved' ? eq(sosAlerts.status, 'resolved') : undefined,
    options.outcome ? eq(sosAlerts.outcome, options.outcome) : undefined,
    options.driverId ? eq(sosAlerts.driverId, options.driverId) : undefined,
    ...istDayRange(sosAlerts.raisedAt, options.from, options.to),
  );
  const page = selectAlerts(db, { sortKey: keyColumn(key) })
    .where(and(filter, after ? afterKey(key, sort.order, after.k) : undefined))
    .orderBy(...orderByKey(key, sort.order))
    .limit(pageLimit(options.limit + 1));
  const total = after?.t !== undefined ? null : cappedCountQuery(db, sosAlerts, filter);
  const { rows, listTotal } = await pageWithTotal(page, total, { limit: options.limit, kept: false, after });
  const { shown, nextCursor } = sortedPage(rows, options.limit, sort, withTotal({}, listTotal));
  const escalations = await escalationsOf(
    db,
    shown.map((row) => row.id),
  );
  return {
    alerts: shown.map(({ sortKey: _sortKey, ...row }) => toSosAlert(row, escalations)),
    nextCursor,
    ...listTotal,
  };
}

export async function findSosAlert(db: DbExecutor, caller: ScopeCaller, id: string): Promise<SosAlert> {
  const [row] = await selectAlerts(db).where(and(eq(sosAlerts.id, id), sosScope(caller)));
  if (!row) throw new AppError('NOT_FOUND', m.notFound());
  return toSosAlert(row, await escalationsOf(db, [id]));
}

// ---------------------------------------------------------------------------------------------
// Raising one

async function nextNumber(db: DbExecutor): Promise<string> {
  const [row] = rowsOf(
    await db.execute(sql`select 'SOS-' || lpad(nextval('sos_number_seq')::text, 6, '0') as number`),
  );
  return String(row?.number);
}

type NewAlert = {
  source: SosSource;
  person: SosPerson;
  driverId: string | null;
  tripId: string | null;
  lat: number | null;
  long: number | null;
  positionAt: Date | null;
  note: string | null;
  raisedBy: string | null;
};

async function insertAlert(tx: DbExecutor, values: NewAlert, requestId: string): Promise<string> {
  const number = await nextNumber(tx);
  const [row] = await tx
    .insert(sosAlerts)
    .values({ ...values, number })
    .returning({ id: sosAlerts.id });
  const id = row!.id;
  await tx.insert(sosEvents).values({ alertId: id, kind: 'raised', note: values.note, by: values.raisedBy });
  await recordAudit(tx, values.raisedBy ? { id: values.raisedBy, requestId } : driverAppActor(requestId), {
    action: 'create',
    resource: 'sos',
    resourceId: id,
    before: null,
    after: {
      number,
      source: values.source,
      person: values.person,
      driverId: values.driverId,
      tripId: values.tripId,
    },
  });
  // Into the inbox of every account in scope, beside the banner: it stays there once acknowledged.
  await notifyAboutDriver(tx, values.driverId, {
    kind: 'sos',
    dedupeKey: `sos:${id}`,
    recordType: 'sos',
    recordId: id,
    detail: { number, person: values.person },
  });
  return id;
}

/**
 * An alert from a driver's phone, with its position: about the trip it names when that trip is
 * the driver's, else the driver's trip under way, if any.
 */
export async function raiseFromDevice(
  db: Db,
  device: { driverId: string },
  input: { lat: number; long: number; at: Date; tripId?: string },
  requestId: string,
): Promise<string> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ id: trips.id })
      .from(trips)
      .where(
        and(
          eq(trips.driverId, device.driverId),
          input.tripId ? eq(trips.id, input.tripId) : inArray(trips.status, ['assigned', 'started']),
        ),
      )
      .orderBy(sql`${trips.createdAt} desc`)
      .limit(1);
    return insertAlert(
      tx,
      {
        source: 'driver_app',
        person: 'driver',
        driverId: device.driverId,
        tripId: current?.id ?? null,
        lat: input.lat,
        long: input.long,
        positionAt: input.at,
        note: null,
        raisedBy: null,
      },
      requestId,
    );
  });
}

/** An alert logged by staff from a call: about a trip (and so its driver) or a driver of the caller's. */
export async function createSos(
  db: Db,
  caller: ChangeCaller,
  body: z.output<typeof createSosBodySchema>,
): Promise<string> {
  return db.transaction(async (tx) => {
    let driverId = body.driverId ?? null;
    const tripId = body.tripId ?? null;
    if (tripId) {
      const [found] = await tx
        .select({ driverId: trips.driverId })
        .from(trips)
        .where(and(eq(trips.id, tripId), tripScope(caller)));
      if (!found) throw fieldError('tripId', m.sosTripUnknown());
      driverId = found.driverId ?? driverId;
    }
    if (driverId) {
      const [found] = await tx
        .select({ id: drivers.id })
        .from(drivers)
        .where(and(eq(drivers.id, driverId), driverScope(caller)));
      if (!found) throw fieldError('driverId', m.sosDriverUnknown());
    }
    if (!driverId && (caller.role !== 'admin' || !tripId)) {
      throw fieldError('driverId', m.sosSubjectRequired());
    }
    return insertAlert(
      tx,
      {
        source: 'staff',
        person: body.person,
        driverId,
        tripId,
        lat: body.lat ?? null,
        long: body.long ?? null,
        positionAt: body.lat !== undefined && body.lat !== null ? new Date() : null,
        note: body.note ?? null,
        raisedBy: caller.id,
      },
      caller.requestId,
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Answering one

/** Takes a step on an alert in the caller's scope; audited. Answers the seconds to acknowledge, when this was it. */
export async function updateSos(
  db: Db,
  caller: ChangeCaller,
  id: string,
  body: z.output<typeof updateSosBodySchema>,
): Promise<{ acknowledgedAfterMs: number | null }> {
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select({ status: sosAlerts.status, raisedAt: sosAlerts.raisedAt })
      .from(sosAlerts)
      .where(and(eq(sosAlerts.id, id), sosScope(caller)))
      .for('update');
    if (!current) throw new AppError('NOT_FOUND', m.notFound());
    const status = current.status as SosStatus;
    if (!canTakeSosAction(status, body.action)) {
      throw fieldError(
        'action',
        m.sosStepNotAllowed({ status: sosStatusLabel(status), action: sosActionLabel(body.action) }),
      );
    }
    const now = new Date();
    let acknowledgedAfterMs: number | null = null;
    let change: Partial<typeof sosAlerts.$inferInsert>;
    let detail: string | null = null;
    switch (body.action) {
      case 'acknowledge':
        change = { status: 'acknowledged', acknowledgedAt: now, acknowledgedBy: caller.id };
        acknowledgedAfterMs = now.getTime() - current.raisedAt.getTime();
        break;
      case 'escalate':
        if (!body.to) throw fieldError('to', m.sosEscalationMissing());
        change = { status: 'escalated' };
        detail = body.to;
        break;
      case 'resolve':
        if (!body.outcome) throw fieldError('outcome', m.sosOutcomeMissing());
        change = {
          status: 'resolved',
          resolvedAt: now,
          resolvedBy: caller.id,
          outcome: body.outcome,
          outcomeNote: body.note ?? null,
        };
        detail = body.outcome;
        break;
    }
    await tx.update(sosAlerts).set(change).where(eq(sosAlerts.id, id));
    const kind =
      body.action === 'acknowledge' ? 'acknowledged' : body.action === 'escalate' ? 'escalated' : 'resolved';
    await tx
      .insert(sosEvents)
      .values({ alertId: id, kind, detail, note: body.note ?? null, by: caller.id, at: now });
    await recordAudit(tx, caller, {
      action: 'update',
      resource: 'sos',
      resourceId: id,
      before: { status },
      after: {
        status: change.status,
        ...(detail ? { [body.action === 'escalate' ? 'to' : 'outcome']: detail } : {}),
      },
    });
    return { acknowledgedAfterMs };
  });
}

/**
 * Marks the alerts nobody acknowledged in time as raised again, once each, and answers them: the
 * caller tells every admin and mails the grievance officer. In time is the seconds the rules of
 * the driver's state in effect today give (a minute by default).
 */
export async function reraiseUnacknowledged(db: Db, now = new Date()): Promise<string[]> {
  const soonest = new Date(now.getTime() - DESK_RULE_LIMITS.sosReraiseSeconds.min * 1000);
  const waiting = await db
    .select({ id: sosAlerts.id, raisedAt: sosAlerts.raisedAt, state: drivers.state })
    .from(sosAlerts)
    .leftJoin(drivers, eq(drivers.id, sosAlerts.driverId))
    .where(and(eq(sosAlerts.status, 'open'), isNull(sosAlerts.reraisedAt), lt(sosAlerts.raisedAt, soonest)));
  if (waiting.length === 0) return [];
  const rules = await deskRulesInEffect(db, indianToday(now));
  const due = waiting
    .filter((alert) => {
      const after = rulesIn(rules, alert.state).sosReraiseSeconds * 1000;
      return alert.raisedAt.getTime() < now.getTime() - after;
    })
    .map((alert) => alert.id);
  if (due.length === 0) return [];
  return db.transaction(async (tx) => {
    // Claimed by one UPDATE: on several instances, each alert is raised again by exactly one.
    const rows = await tx
      .update(sosAlerts)
      .set({ reraisedAt: now })
      .where(and(inArray(sosAlerts.id, due), eq(sosAlerts.status, 'open'), isNull(sosAlerts.reraisedAt)))
      .returning({ id: sosAlerts.id });
    if (rows.length) {
      await tx.insert(sosEvents).values(rows.map((row) => ({ alertId: row.id, kind: 'reraised', at: now })));
    }
    return rows.map((row) => row.id);
  });
}
