import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { NotificationKind, NotificationRecord } from '@bmet/shared/notification-rules';
import type { Notification } from '@bmet/shared/schemas/notification';
import type { DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { notifications } from '../../db/schema';
import { cursorTimestampSchema, decodeCursor, keysetPage } from '../../lib/paging';

/** What one event tells the accounts whose scope holds it. */
export type NoticeEvent = {
  kind: NotificationKind;
  /** Names the event, so that it is recorded once per account however often it is found. */
  dedupeKey: string;
  recordType: NotificationRecord;
  recordId: string;
  detail: Notification['detail'];
};

/**
 * The accounts a record about `driverId` concerns, as SQL answering `account_id`: every active
 * admin, and the driver's franchise and that franchise's city dealer, when active (the scope
 * rules of lib/scope.ts seen from the driver's side). A record about no driver is the admins'.
 */
export function recipientsOf(driverId: SQL | string | null): SQL {
  const active = sql`not a.disabled and a.deleted_at is null`;
  if (driverId === null)
    return sql`select a.id as account_id from accounts a where a.role = 'admin' and ${active}`;
  return sql`select a.id as account_id from accounts a where ${active} and (
      a.role = 'admin'
      or a.id in (select d.franchise_id from drivers d where d.id = ${driverId})
      or a.id in (select f.dealer_id from drivers d join accounts f on f.id = d.franchise_id
        where d.id = ${driverId} and a.role = 'city_dealer'))`;
}

/**
 * Records an event in the inbox of every account it concerns (see recipientsOf), once each;
 * answers the accounts that got it now, to push to their open tabs.
 */
export async function notifyAboutDriver(
  db: DbExecutor,
  driverId: string | null,
  event: NoticeEvent,
): Promise<string[]> {
  const rows = rowsOf(
    await db.execute(sql`
      insert into notifications (account_id, kind, dedupe_key, record_type, record_id, detail)
      select r.account_id, ${event.kind}, ${event.dedupeKey}, ${event.recordType}, ${event.recordId}::uuid,
        ${JSON.stringify(event.detail)}::jsonb
      from (${recipientsOf(driverId)}) r
      on conflict (account_id, dedupe_key) do nothing
      returning account_id`),
  );
  return rows.map((row) => String(row.account_id));
}

/** Records events in the inboxes named, once each, in bounded statements; answers the accounts told now. */
export async function notifyAccounts(
  db: DbExecutor,
  told: { accountId: string; event: NoticeEvent }[],
): Promise<string[]> {
  const accountIds = new Set<string>();
  for (let start = 0; start < told.length; start += 1000) {
    const rows = await db
      .insert(notifications)
      .values(told.slice(start, start + 1000).map(({ accountId, event }) => ({ accountId, ...event })))
      .onConflictDoNothing()
      .returning({ accountId: notifications.accountId });
    for (const row of rows) accountIds.add(row.accountId);
  }
  return [...accountIds];
}

const cursorSchema = z.strictObject({ c: cursorTimestampSchema, i: z.uuid() });

const asNotification = (row: Record<string, unknown>): Notification => ({
  id: String(row.id),
  kind: row.kind as Notification['kind'],
  recordType: row.record_type as Notification['recordType'],
  recordId: String(row.record_id),
  detail: (row.detail ?? {}) as Notification['detail'],
  createdAt: new Date(String(row.created_at)).toISOString(),
  readAt: row.read_at ? new Date(String(row.read_at)).toISOString() : null,
});

/** A page of an account's inbox, newest first, with how many are unread in all. */
export async function listNotifications(
  db: DbExecutor,
  accountId: string,
  options: { limit: number; cursor?: string; unread?: boolean },
) {
  const after = options.cursor ? decodeCursor(options.cursor, cursorSchema) : null;
  const rows = rowsOf(
    await db.execute(sql`
      select id, kind, record_type, record_id, detail, created_at, read_at,
        to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
      from notifications
      where account_id = ${accountId}
        ${options.unread ? sql`and read_at is null` : sql``}
        ${after ? sql`and (created_at, id) < (${after.c}::timestamptz, ${after.i}::uuid)` : sql``}
      order by created_at desc, id desc
      limit ${options.limit + 1}`),
  );
  const { shown, nextCursor } = keysetPage(rows, options.limit, (row) => ({
    c: String(row.cursor_at),
    i: String(row.id),
  }));
  return { data: shown.map(asNotification), nextCursor, unread: await unreadCount(db, accountId) };
}

export async function unreadCount(db: DbExecutor, accountId: string): Promise<number> {
  const [row] = rowsOf(
    await db.execute(
      sql`select count(*)::int as n from notifications where account_id = ${accountId} and read_at is null`,
    ),
  );
  return Number(row?.n ?? 0);
}

/** Marks one of the account's notifications read or unread; null when it has no such notification. */
export async function markNotification(
  db: DbExecutor,
  accountId: string,
  id: string,
  read: boolean,
): Promise<Notification | null> {
  const [row] = await db
    .update(notifications)
    .set({ readAt: read ? sql`coalesce(${notifications.readAt}, now())` : null })
    .where(and(eq(notifications.id, id), eq(notifications.accountId, accountId)))
    .returning();
  if (!row) return null;
  return asNotification({
    id: row.id,
    kind: row.kind,
    record_type: row.recordType,
    record_id: row.recordId,
    detail: row.detail,
    created_at: row.createdAt,
    read_at: row.readAt,
  });
}

/** Marks every unread notification of the account read; answers how many. */
export async function markAllRead(db: DbExecutor, accountId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.accountId, accountId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}
