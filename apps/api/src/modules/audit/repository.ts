import { and, eq, or, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { STORED_DOCUMENT_KEYS, type Role } from '@bmet/shared/constants';
import type { AuditEntry, auditListQuerySchema } from '@bmet/shared/schemas/audit';
import { anyOf } from '../../db/any-of';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { accounts, auditLog, driverDeviceTokens, drivers, tripFeedback, trips } from '../../db/schema';
import { istDayRange } from '../../lib/ist-days';
import { AUDIT_SORTS, DEFAULT_ORDERS, resolveSort } from '@bmet/shared/schemas/sort';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';

export type AuditCaller = { id: string; role: Role };
export type AuditQuery = z.output<typeof auditListQuerySchema>;

/** The driver a record belongs to (as text): its own id, a document's driver, a device's driver. */
const driverOfRecord = sql`case
  when ${auditLog.resource} = 'drivers' then ${auditLog.resourceId}
  when ${auditLog.resource} = 'driver-documents' then split_part(${auditLog.resourceId}, '/', 1)
  when ${auditLog.resource} = 'driver-device-tokens' then (
    select ${driverDeviceTokens.driverId}::text from ${driverDeviceTokens}
    where ${driverDeviceTokens.id}::text = ${auditLog.resourceId})
end`;

/** The trip a feedback record belongs to. */
const tripOfRecord = sql`case when ${auditLog.resource} = 'trip-feedback' then (
  select ${tripFeedback.tripId}::text from ${tripFeedback} where ${tripFeedback.id}::text = ${auditLog.resourceId})
end`;

/** The kinds of record that are accounts (the record id is the account's). */
const ACCOUNT_RECORDS = sql`${auditLog.resource} in ('franchises', 'city-dealers', 'passwords', 'profile')`;

/**
 * The audit rows a caller may read. An admin reads them all; a city dealer the changes to records
 * in its scope as the lists define it: its franchises' drivers (with their documents and devices,
 * and the feedback on their trips), its franchises' accounts and its own account. Rates are the
 * admins' alone. Any other role reads nothing (the route refuses it before this).
 */
function auditScope(caller: AuditCaller): SQL | undefined {
  if (caller.role === 'admin') return undefined;
  if (caller.role !== 'city_dealer') return sql`false`;
  const franchises = sql`select ${accounts.id} from ${accounts}
    where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise'`;
  const dealerDrivers = sql`select ${drivers.id}::text from ${drivers} where ${drivers.franchiseId} in (${franchises})`;
  return or(
    sql`${auditLog.resource} in ('drivers', 'driver-documents', 'driver-device-tokens') and ${driverOfRecord} in (${dealerDrivers})`,
    sql`${auditLog.resource} = 'trips' and ${auditLog.resourceId} in (
      select ${trips.id}::text from ${trips} where ${trips.driverId}::text in (${dealerDrivers}))`,
    sql`${auditLog.resource} = 'trip-feedback' and ${auditLog.resourceId} in (
      select ${tripFeedback.id}::text from ${tripFeedback} join ${trips} on ${trips.id} = ${tripFeedback.tripId}
      where ${trips.driverId}::text in (${dealerDrivers}))`,
    sql`${ACCOUNT_RECORDS} and ${auditLog.resourceId} in (select ${accounts.id}::text from ${accounts}
      where ${accounts.dealerId} = ${caller.id} and ${accounts.role} = 'franchise')`,
    sql`${ACCOUNT_RECORDS} and ${auditLog.resourceId} = ${caller.id}`,
  );
}

/**
 * A driver's whole history: the driver, its documents and its devices, each found through the
 * (resource, resource_id) index rather than by reading the whole trail.
 */
function driverHistory(driverId: string): SQL {
  return or(
    and(eq(auditLog.resource, 'drivers'), eq(auditLog.resourceId, driverId)),
    and(
      eq(auditLog.resource, 'driver-documents'),
      anyOf(
        auditLog.resourceId,
        STORED_DOCUMENT_KEYS.map((key) => `${driverId}/${key}`),
        'text',
      ),
    ),
    sql`${auditLog.resource} = 'driver-device-tokens' and ${auditLog.resourceId} in (
      select ${driverDeviceTokens.id}::text from ${driverDeviceTokens}
      where ${driverDeviceTokens.driverId}::text = ${driverId})`,
  )!;
}

/**
 * Not the system's own entries: a driver device token issued or used, a language switched (a
 * profile change of the language alone).
 */
const NOT_SYSTEM = sql`not (${auditLog.resource} = 'driver-device-tokens' or (${auditLog.resource} = 'profile'
  and jsonb_typeof(${auditLog.after}) = 'object' and ${auditLog.after} ? 'language' and ${auditLog.after} - 'language' = '{}'::jsonb))`;

function filters(query: AuditQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.actor) conditions.push(eq(auditLog.actorId, query.actor));
  if (query.recordType === 'drivers' && query.recordId) {
    conditions.push(driverHistory(query.recordId));
  } else if (query.recordType === 'trip-feedback' && query.recordId) {
    // A trip's history: the feedback given on it (or one feedback by its own id).
    conditions.push(
      sql`${auditLog.resource} = 'trip-feedback' and (${auditLog.resourceId} = ${query.recordId} or ${auditLog.resourceId} in (
        select ${tripFeedback.id}::text from ${tripFeedback} where ${tripFeedback.tripId}::text = ${query.recordId}))`,
    );
  } else {
    if (query.recordType) conditions.push(eq(auditLog.resource, query.recordType));
    if (query.recordId) conditions.push(eq(auditLog.resourceId, query.recordId));
  }
  if (query.action) conditions.push(eq(auditLog.action, query.action));
  // What the system did on a person's behalf, unless asked for (or its kind is).
  if (query.system !== 'true' && query.recordType !== 'driver-device-tokens') conditions.push(NOT_SYSTEM);
  conditions.push(...istDayRange(auditLog.at, query.from, query.to));
  return conditions;
}

const asObject = (value: unknown) =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

/** The trail's order: by time, then by id (audit_log_at_idx, read either way). */
const TIME_KEY: KeyPart[] = [
  { expression: auditLog.at, type: 'timestamptz', indexDesc: true },
  { expression: auditLog.id, type: 'int8', indexDesc: true },
];

/** One page of the audit trail, newest first unless `order=asc`, keyed by (at, id). */
export async function findAuditEntries(
  db: Db,
  caller: AuditCaller,
  query: AuditQuery,
): Promise<{ entries: AuditEntry[]; nextCursor: string | null }> {
  const conditions = [...filters(query)];
  const scope = auditScope(caller);
  if (scope) conditions.push(scope);
  const sort = resolveSort(AUDIT_SORTS, DEFAULT_ORDERS.audit, query);
  if (query.cursor) {
    const key = decodeSortedCursor(query.cursor, sort, TIME_KEY);
    conditions.push(afterKey(TIME_KEY, sort.order, key.k));
  }
  const actor = sql`actor`;
  const rows = rowsOf(
    await db.execute(sql`
      select ${auditLog.id}::text as id, ${keyColumn(TIME_KEY)} as sort_key,
        to_char(${auditLog.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
        ${auditLog.action} as action, ${auditLog.resource} as record_type,
        ${auditLog.resourceId} as record_id, ${auditLog.before} as before, ${auditLog.after} as after,
        ${auditLog.source} as source,
        ${actor}.id as actor_id, ${actor}.display_name as actor_name, ${actor}.email as actor_email,
        ${actor}.role as actor_role,
        ${driverOfRecord} as driver_id, ${tripOfRecord} as trip_id
      from ${auditLog}
      left join ${accounts} as ${actor} on ${actor}.id = ${auditLog.actorId}
      where ${conditions.length ? and(...conditions) : sql`true`}
      order by ${sql.join(orderByKey(TIME_KEY, sort.order), sql`, `)}
      limit ${query.limit + 1}`),
  );
  const { shown, nextCursor } = sortedPage(
    rows.map((row) => Object.assign(row, { sortKey: row.sort_key as unknown[] })),
    query.limit,
    sort,
  );
  const names = await recordNames(db, shown);
  return {
    nextCursor,
    entries: shown.map((row) => ({
      id: String(row.id),
      at: String(row.at),
      actor: row.actor_id
        ? {
            id: String(row.actor_id),
            name: String(row.actor_name ?? ''),
            email: String(row.actor_email ?? ''),
            role: row.actor_role as Role,
          }
        : null,
      source: row.source === 'firebase' || row.source === 'driver-app' ? row.source : null,
      action: String(row.action),
      recordType: String(row.record_type),
      recordId: row.record_id == null ? null : String(row.record_id),
      recordName: names.get(`${String(row.record_type)}:${String(row.record_id)}`) ?? null,
      driverId: row.driver_id == null ? null : String(row.driver_id),
      tripId: row.trip_id == null ? null : String(row.trip_id),
      before: asObject(row.before),
      after: asObject(row.after),
    })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the records of a page are called now: drivers' and accounts' names, trips' titles. */
async function recordNames(db: Db, rows: Record<string, unknown>[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const driverIds = new Set<string>();
  const accountIds = new Set<string>();
  const tripIds = new Set<string>();
  for (const row of rows) {
    const tripId = row.trip_id == null ? '' : String(row.trip_id);
    if (UUID.test(tripId)) tripIds.add(tripId);
    const driverId = row.driver_id == null ? '' : String(row.driver_id);
    if (UUID.test(driverId)) driverIds.add(driverId);
    const type = String(row.record_type);
    const id = String(row.record_id);
    if (['franchises', 'city-dealers', 'passwords', 'profile'].includes(type) && UUID.test(id))
      accountIds.add(id);
  }
  const [driverRows, accountRows, tripRows] = await Promise.all([
    driverIds.size
      ? db
          .select({ id: drivers.id, name: drivers.name })
          .from(drivers)
          .where(anyOf(drivers.id, [...driverIds], 'uuid'))
      : [],
    accountIds.size
      ? db
          .select({ id: accounts.id, name: accounts.displayName, email: accounts.email })
          .from(accounts)
          .where(anyOf(accounts.id, [...accountIds], 'uuid'))
      : [],
    tripIds.size
      ? db
          .select({ id: trips.id, title: trips.title })
          .from(trips)
          .where(anyOf(trips.id, [...tripIds], 'uuid'))
      : [],
  ]);
  const tripTitle = new Map(tripRows.map((row) => [row.id, row.title]));
  const driverName = new Map(driverRows.map((row) => [row.id, row.name]));
  const accountName = new Map(accountRows.map((row) => [row.id, row.name || row.email]));
  for (const row of rows) {
    const type = String(row.record_type);
    const key = `${type}:${String(row.record_id)}`;
    const name =
      accountName.get(String(row.record_id)) ??
      (row.driver_id == null ? undefined : driverName.get(String(row.driver_id))) ??
      (row.trip_id == null ? undefined : tripTitle.get(String(row.trip_id)));
    if (name) names.set(key, name);
  }
  return names;
}
