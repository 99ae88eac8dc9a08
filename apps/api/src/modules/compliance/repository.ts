import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
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
import { decodeCursor, keysetPage } from '../../lib/paging';
import { driverScope, type DriverScopeCaller } from '../drivers/scope';

export type ComplianceQuery = z.output<typeof complianceQuerySchema>;

const dayCursor = z.object({ on: z.iso.date(), d: z.uuid(), k: z.string().max(40) }).strict();
const timeCursor = z.object({ at: z.iso.datetime(), d: z.uuid(), k: z.string().max(40) }).strict();

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
  caller: DriverScopeCaller,
  query: ComplianceQuery,
): Promise<{ entries: ComplianceEntry[]; nextCursor: string | null }> {
  const today = indianToday();
  const reviewView = query.status === 'submitted';
  const conditions: SQL[] = [
    driverScope(caller),
    reviewView ? awaitingReview : expiryWindow(today, query.within),
  ];
  if (query.cursor) {
    if (reviewView) {
      const key = decodeCursor(query.cursor, timeCursor);
      conditions.push(
        sql`(${driverDocuments.uploadedAt}, ${driverDocuments.driverId}, ${driverDocuments.key}) > (${key.at}::timestamptz, ${key.d}::uuid, ${key.k})`,
      );
    } else {
      const key = decodeCursor(query.cursor, dayCursor);
      conditions.push(
        sql`(${driverDocuments.expiresOn}, ${driverDocuments.driverId}, ${driverDocuments.key}) > (${key.on}::date, ${key.d}::uuid, ${key.k})`,
      );
    }
  }
  const order = reviewView
    ? [asc(driverDocuments.uploadedAt), asc(driverDocuments.driverId), asc(driverDocuments.key)]
    : [asc(driverDocuments.expiresOn), asc(driverDocuments.driverId), asc(driverDocuments.key)];
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
    })
    .from(driverDocuments)
    .innerJoin(drivers, eq(drivers.id, driverDocuments.driverId))
    .where(and(...conditions))
    .orderBy(...order)
    .limit(query.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, query.limit, (row) =>
    reviewView
      ? { at: row.uploadedAt, d: row.driverId, k: row.key }
      : { on: row.expiresOn, d: row.driverId, k: row.key },
  );
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
export async function complianceSummary(db: Db, caller: DriverScopeCaller): Promise<ComplianceSummary> {
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
