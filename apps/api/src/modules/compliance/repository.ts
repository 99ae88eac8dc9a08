import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { DocumentKey } from '@bmet/shared/constants';
import { documentLabel } from '@bmet/shared/labels';
import type {
  ComplianceEntry,
  ComplianceSummary,
  complianceQuerySchema,
} from '@bmet/shared/schemas/compliance';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { driverDocuments, drivers } from '../../db/schema';
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
import { type ScopeCaller, driverScope } from '../../lib/scope';

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

/** A page of the documents a compliance view lists, in the caller's scope. */
export async function findComplianceEntries(
  db: Db,
  caller: ScopeCaller,
  query: ComplianceQuery,
): Promise<{ entries: ComplianceEntry[]; nextCursor: string | null }> {
  const today = indianToday();
  const reviewView = query.status === 'submitted';
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

/** How many documents each compliance view holds for the caller, in one pass over its drivers' documents. */
export async function complianceSummary(db: Db, caller: ScopeCaller): Promise<ComplianceSummary> {
  const today = indianToday();
  const count = (condition: SQL) => sql`count(*) filter (where ${condition})::int`;
  const [row] = rowsOf(
    await db.execute(sql`
      select ${count(expiryWindow(today, 0))} as expired,
        ${count(expiryWindow(today, 1))} as within1,
        ${count(expiryWindow(today, 7))} as within7,
        ${count(expiryWindow(today, 30))} as within30,
        ${count(awaitingReview)} as awaiting_review
      from ${driverDocuments} join ${drivers} on ${drivers.id} = ${driverDocuments.driverId}
      where ${driverScope(caller)}
        and (${driverDocuments.status} = 'submitted'
          or (${driverDocuments.status} = 'approved' and ${driverDocuments.expiresOn} <= ${plusDays(today, 30)}))`),
  );
  return {
    expired: Number(row?.expired ?? 0),
    within1: Number(row?.within1 ?? 0),
    within7: Number(row?.within7 ?? 0),
    within30: Number(row?.within30 ?? 0),
    awaitingReview: Number(row?.awaiting_review ?? 0),
  };
}
