import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DocumentKey } from '@bmet/shared/constants';
import { documentLabel } from '@bmet/shared/labels';
import { CHECK_KIND_LABELS } from '@bmet/shared/check-labels';
import { DRIVER_CHECK_KINDS, type DriverCheckKind } from '@bmet/shared/driver-check-rules';
import type {
  ComplianceEntry,
  ComplianceSummary,
  complianceQuerySchema,
} from '@bmet/shared/schemas/compliance';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { complianceCounts, driverDocuments, drivers } from '../../db/schema';
import { indianToday } from '../../lib/ist-days';
import { COMPLIANCE_SORTS } from '@bmet/shared/schemas/sort';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { type ScopeCaller, driverScope, franchiseIdScope } from '../../lib/scope';

export type ComplianceQuery = z.output<typeof complianceQuerySchema>;

type ComplianceSort = (typeof COMPLIANCE_SORTS)[number];

/**
 * A sort's key: the field, then the driver and the document. An expiry view's documents all have
 * an expiry date (driver_documents_expires_idx serves them); documents awaiting review may have
 * none, nor may an old one have an upload time: those sort as the latest day and the earliest time.
 */
function complianceKey(field: ComplianceSort, reviewView: boolean): KeyPart[] {
  const tail: KeyPart[] = [
    { expression: driverDocuments.driverId, type: 'uuid' },
    { expression: driverDocuments.key, type: 'text' },
  ];
  if (field === 'driverName') return [{ expression: drivers.name, type: 'text' }, ...tail];
  if (field === 'uploadedAt') {
    return [
      { expression: sql`coalesce(${driverDocuments.uploadedAt}, 'epoch'::timestamptz)`, type: 'timestamptz' },
      ...tail,
    ];
  }
  const expiresOn = reviewView
    ? sql`coalesce(${driverDocuments.expiresOn}, '9999-12-31'::date)`
    : sql`${driverDocuments.expiresOn}`;
  return [{ expression: expiresOn, type: 'date' }, ...tail];
}

/** The day `days` after an IST date, computed by the database so that months and years roll over. */
const plusDays = (today: string, days: number) => sql`(${today}::date + ${days}::int)`;

/** The approved documents whose expiry falls in a window: before today (expired) or from today on. */
function expiryWindow(today: string, within: number): SQL {
  const approved = sql`${driverDocuments.status} = 'approved' and ${driverDocuments.expiresOn} is not null`;
  return within === 0
    ? sql`${approved} and ${driverDocuments.expiresOn} < ${today}::date`
    : sql`${approved} and ${driverDocuments.expiresOn} >= ${today}::date and ${driverDocuments.expiresOn} <= ${plusDays(today, within)}`;
}

const awaitingReview = sql`${driverDocuments.status} = 'submitted'`;

/**
 * The checks that lapse on a date (police verification, fitness, insurance) in an expiry window,
 * beside the documents: a failed check is not listed (it is not in force).
 */
function checkExpiryWindow(today: string, within: number): SQL {
  const inForce = sql`c.expires_on is not null and (c.result is null or c.result = 'passed')`;
  return within === 0
    ? sql`${inForce} and c.expires_on < ${today}::date`
    : sql`${inForce} and c.expires_on >= ${today}::date and c.expires_on <= ${plusDays(today, within)}`;
}

const isCheckKind = (key: string): key is DriverCheckKind =>
  (DRIVER_CHECK_KINDS as readonly string[]).includes(key);

/**
 * An expiry view: the documents and the checks whose expiry falls in its window, in one order
 * (the key's tail is the driver and the document's key or the check's kind, never the same).
 */
async function findExpiring(
  db: Db,
  caller: ScopeCaller,
  query: ComplianceQuery,
  today: string,
): Promise<{ entries: ComplianceEntry[]; nextCursor: string | null }> {
  const sort = { field: query.sort ?? 'expiresOn', order: query.order ?? 'asc' } as const;
  const tail: KeyPart[] = [
    { expression: sql`items.driver_id`, type: 'uuid' },
    { expression: sql`items.key`, type: 'text' },
  ];
  const first: Record<ComplianceSort, KeyPart> = {
    driverName: { expression: sql`${drivers.name}`, type: 'text' },
    uploadedAt: { expression: sql`coalesce(items.uploaded_at, 'epoch'::timestamptz)`, type: 'timestamptz' },
    expiresOn: { expression: sql`items.expires_on`, type: 'date' },
  };
  const parts = [first[sort.field], ...tail];
  const conditions: SQL[] = [driverScope(caller)];
  if (query.cursor)
    conditions.push(afterKey(parts, sort.order, decodeSortedCursor(query.cursor, sort, parts).k));
  const rows = rowsOf(
    await db.execute(sql`
      select items.driver_id, ${drivers.name} as driver_name, items.key, items.status,
        items.expires_on::text as expires_on,
        to_char(items.uploaded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as uploaded_at,
        ${keyColumn(parts)} as sort_key
      from (
        select ${driverDocuments.driverId} as driver_id, ${driverDocuments.key} as key,
          ${driverDocuments.status}::text as status, ${driverDocuments.expiresOn} as expires_on,
          ${driverDocuments.uploadedAt} as uploaded_at
        from ${driverDocuments} where ${expiryWindow(today, query.within)}
        union all
        select c.driver_id, c.kind, null, c.expires_on, null::timestamptz
        from driver_checks c where ${checkExpiryWindow(today, query.within)}
      ) items
      join ${drivers} on ${drivers.id} = items.driver_id
      where ${and(...conditions)}
      order by ${sql.join(orderByKey(parts, sort.order), sql`, `)}
      limit ${query.limit + 1}`),
  ).map((row: Record<string, unknown>) => ({
    row,
    sortKey: (typeof row.sort_key === 'string' ? JSON.parse(row.sort_key) : row.sort_key) as unknown[],
  }));
  const { shown, nextCursor } = sortedPage(rows, query.limit, sort);
  return {
    nextCursor,
    entries: shown.map(({ row }) => {
      const key = String(row.key);
      return isCheckKind(key)
        ? {
            driverId: String(row.driver_id),
            driverName: String(row.driver_name),
            document: key,
            label: CHECK_KIND_LABELS[key](),
            status: null,
            expiresOn: row.expires_on === null ? null : String(row.expires_on),
            uploadedAt: null,
          }
        : {
            driverId: String(row.driver_id),
            driverName: String(row.driver_name),
            document: key as DocumentKey,
            label: documentLabel(key as DocumentKey),
            status: row.status as ComplianceEntry['status'],
            expiresOn: row.expires_on === null ? null : String(row.expires_on),
            uploadedAt: row.uploaded_at === null ? null : String(row.uploaded_at),
          };
    }),
  };
}

/** A page of what a compliance view lists, in the caller's scope: documents, and checks that lapse. */
export async function findComplianceEntries(
  db: Db,
  caller: ScopeCaller,
  query: ComplianceQuery,
): Promise<{ entries: ComplianceEntry[]; nextCursor: string | null }> {
  const today = indianToday();
  const reviewView = query.status === 'submitted';
  if (!reviewView) return findExpiring(db, caller, query, today);
  const conditions: SQL[] = [
    driverScope(caller),
    reviewView ? awaitingReview : expiryWindow(today, query.within),
  ];
  const sort = {
    field: query.sort ?? (reviewView ? 'uploadedAt' : 'expiresOn'),
    order: query.order ?? 'asc',
  } as const;
  const parts = complianceKey(sort.field, reviewView);
  if (query.cursor) {
    const key = decodeSortedCursor(query.cursor, sort, parts);
    conditions.push(afterKey(parts, sort.order, key.k));
  }
  const rows = await db
    .select({
      driverId: driverDocuments.driverId,
      driverName: drivers.name,
      key: driverDocuments.key,
      status: driverDocuments.status,
      expiresOn: driverDocuments.expiresOn,
      uploadedAt: sql<
        string | null
      >`to_char(${driverDocuments.uploadedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      sortKey: keyColumn(parts),
    })
    .from(driverDocuments)
    .innerJoin(drivers, eq(drivers.id, driverDocuments.driverId))
    .where(and(...conditions))
    .orderBy(...orderByKey(parts, sort.order))
    .limit(query.limit + 1);
  const { shown, nextCursor } = sortedPage(rows, query.limit, sort);
  return {
    nextCursor,
    entries: shown.map((row) => ({
      driverId: row.driverId,
      driverName: row.driverName,
      document: row.key as DocumentKey,
      label: documentLabel(row.key as DocumentKey),
      status: row.status,
      expiresOn: row.expiresOn,
      uploadedAt: row.uploadedAt,
    })),
  };
}

/**
 * How many documents and checks each compliance view holds for the caller, added up from the
 * counts the database keeps per franchise (migration 0041): a few hundred rows, however many
 * drivers and documents there are. The same rules as the views' own conditions: awaitingReview as
 * `awaitingReview`, the windows as `expiryWindow` and `checkExpiryWindow` (a test holds each
 * count to its view's list).
 */
export async function complianceSummary(db: Db, caller: ScopeCaller): Promise<ComplianceSummary> {
  const today = indianToday();
  const due = (from: SQL | null, to: SQL) =>
    sql`coalesce(sum(${complianceCounts.items}) filter (where ${complianceCounts.kind} = 'expiry'
      ${from === null ? sql`` : sql`and ${complianceCounts.expiresOn} >= ${from}`}
      and ${complianceCounts.expiresOn} ${from === null ? sql`<` : sql`<=`} ${to}), 0)::int`;
  const [row] = await db
    .select({
      expired: due(null, sql`${today}::date`),
      within1: due(sql`${today}::date`, plusDays(today, 1)),
      within7: due(sql`${today}::date`, plusDays(today, 7)),
      within30: due(sql`${today}::date`, plusDays(today, 30)),
      awaitingReview: sql<number>`coalesce(sum(${complianceCounts.items}) filter (where ${complianceCounts.kind} = 'review'), 0)::int`,
    })
    .from(complianceCounts)
    .where(
      and(
        eq(complianceCounts.deleted, false),
        franchiseIdScope(caller, complianceCounts.franchiseId),
        sql`(${complianceCounts.kind} = 'review' or ${complianceCounts.expiresOn} <= ${plusDays(today, 30)})`,
      ),
    );
  return {
    expired: Number(row?.expired ?? 0),
    within1: Number(row?.within1 ?? 0),
    within7: Number(row?.within7 ?? 0),
    within30: Number(row?.within30 ?? 0),
    awaitingReview: Number(row?.awaitingReview ?? 0),
  };
}
