import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { accounts, auditLog, drivers } from '../db/schema';
import { rowsOf } from '../db/rows';
import { FIREBASE_ACTOR, recordAudit } from '../infra/audit';
import { revokeAccountSessions } from '../modules/auth/repository';

/**
 * What the link changes in drivers, customers and trips, in the audit trail: each record created
 * or changed, attributed to Firebase, with the fields before and after. Positions are not recorded
 * (they come every few seconds, and the map is their record).
 */

type Audited = { table: 'drivers' | 'customers' | 'trips'; resource: string };

export const AUDITED: Partial<Record<string, Audited>> = {
  driver: { table: 'drivers', resource: 'drivers' },
  customer: { table: 'customers', resource: 'customers' },
  trips: { table: 'trips', resource: 'trips' },
};

/** Columns that change without anyone changing the record, or that say nothing to a reader. */
const UNTOLD = [
  'id',
  'firebase_key',
  'search_text',
  'lat',
  'long',
  'position_at',
  'created_at',
  'updated_at',
  'documents_awaiting_review',
  'rating_total',
  'rating_count',
];

type Snapshot = Map<string, { id: string; row: Record<string, unknown> }>;

/** The records of these Firebase keys as stored now, the untold columns left out. */
export async function snapshotOf(tx: Db, audited: Audited, keys: string[]): Promise<Snapshot> {
  if (keys.length === 0) return new Map();
  const rows = rowsOf(
    await tx.execute(sql`
      select t.firebase_key, t.id::text as id, to_jsonb(t) - ${`{${UNTOLD.join(',')}}`}::text[] as row
      from ${sql.identifier(audited.table)} t
      where t.firebase_key = any(${`{${keys.map((key) => JSON.stringify(key)).join(',')}}`}::text[])`),
  );
  return new Map(
    rows.map((row) => [
      String(row.firebase_key),
      {
        id: String(row.id),
        row: (typeof row.row === 'string' ? JSON.parse(row.row) : row.row) as Record<string, unknown>,
      },
    ]),
  );
}

/**
 * Audit rows for what changed between two snapshots: a record that appeared (when `creations`:
 * a change that arrived live, not one brought in by a first sync), or one whose fields changed.
 */
export async function auditChanges(
  tx: Db,
  audited: Audited,
  before: Snapshot,
  after: Snapshot,
  { creations }: { creations: boolean },
): Promise<number> {
  const rows: (typeof auditLog.$inferInsert)[] = [];
  for (const [key, now] of after) {
    const was = before.get(key);
    if (!was) {
      if (creations) rows.push(entry(audited, now.id, 'create', null, now.row));
      continue;
    }
    const changed = Object.keys(now.row).filter(
      (field) => JSON.stringify(now.row[field]) !== JSON.stringify(was.row[field]),
    );
    if (changed.length === 0) continue;
    rows.push(
      entry(
        audited,
        now.id,
        'update',
        Object.fromEntries(changed.map((field) => [field, was.row[field] ?? null])),
        Object.fromEntries(changed.map((field) => [field, now.row[field] ?? null])),
      ),
    );
  }
  for (let i = 0; i < rows.length; i += 500) await tx.insert(auditLog).values(rows.slice(i, i + 500));
  return rows.length;
}

function entry(
  audited: Audited,
  id: string,
  action: string,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): typeof auditLog.$inferInsert {
  return {
    actorId: null,
    action,
    resource: audited.resource,
    resourceId: id,
    before,
    after,
    requestId: null,
    source: FIREBASE_ACTOR.source,
  };
}

/**
 * Records removed in Firebase, ended as the console ends records: a driver is deleted softly (out
 * of the lists, restorable, its trips kept); a customer or a trip is the company's history and is
 * kept, marked as removed there; a city dealer or franchise is disabled (the driver app no longer
 * offers it; an admin may enable it again, which writes it back). Each is audited as removed in
 * Firebase. Answers how many records it ended.
 */
export async function removeRecords(tx: Db, section: string, keys: string[]): Promise<number> {
  if (keys.length === 0) return 0;
  const removed = { removedInFirebase: true };
  if (section === 'driver') {
    const ended = await tx
      .update(drivers)
      .set({ deletedAt: new Date() })
      .where(and(inArray(drivers.firebaseKey, keys), isNull(drivers.deletedAt)))
      .returning({ id: drivers.id });
    for (const { id } of ended) {
      await recordAudit(tx, FIREBASE_ACTOR, {
        action: 'delete',
        resource: 'drivers',
        resourceId: id,
        before: { deletedAt: null },
        after: { deletedAt: new Date().toISOString(), ...removed },
      });
    }
    return ended.length;
  }
  if (section === 'customer' || section === 'trips') {
    const table = section === 'customer' ? 'customers' : 'trips';
    const ended = rowsOf(
      await tx.execute(sql`
        update ${sql.identifier(table)} set firebase_removed_at = now()
        where firebase_key = any(${`{${keys.map((key) => JSON.stringify(key)).join(',')}}`}::text[])
          and firebase_removed_at is null
        returning id::text as id`),
    );
    for (const { id } of ended) {
      await recordAudit(tx, FIREBASE_ACTOR, {
        action: 'delete',
        resource: table,
        resourceId: String(id),
        before: null,
        after: removed,
      });
    }
    return ended.length;
  }
  if (section === 'city_dealer' || section === 'franchise') {
    const ended = await tx
      .update(accounts)
      .set({ disabled: true })
      .where(
        and(
          inArray(accounts.firebaseKey, keys),
          eq(accounts.role, section),
          eq(accounts.disabled, false),
          isNull(accounts.deletedAt),
        ),
      )
      .returning({ id: accounts.id });
    for (const { id } of ended) {
      await revokeAccountSessions(tx, id);
      await recordAudit(tx, FIREBASE_ACTOR, {
        action: 'update',
        resource: section === 'city_dealer' ? 'city-dealers' : 'franchises',
        resourceId: id,
        before: { disabled: false },
        after: { disabled: true, ...removed },
      });
    }
    return ended.length;
  }
  return 0;
}
