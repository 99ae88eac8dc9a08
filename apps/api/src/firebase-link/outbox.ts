import { sql } from 'drizzle-orm';
import type { Db, DbExecutor } from '../db/client';
import { rowsOf } from '../db/rows';
import type { FirebaseRestClient } from './rest-client';

/**
 * Sends the writes queued in the console's outbox (infra/firebase-outbox.ts) to Firebase, and
 * recognises them when they come back on the stream.
 *
 * Each node's newest waiting write is sent whole (PUT, or DELETE for a removal): the ones queued
 * before it are superseded by it, so a node's writes reach Firebase in order and its last one wins.
 * A failed write waits 2, 4, 8 ... s (at most 5 minutes) and is tried again; the other nodes' writes
 * go on meanwhile.
 */

const MAX_RETRY_S = 300;
/** How long a sent write is expected back on the stream; kept a day for the admin screen. */
const ECHO_WINDOW = '1 hour';
const KEPT = '1 day';
const PER_PASS = 100;

/** Sends every write whose time has come; answers the paths written. */
export async function sendWaitingWrites(db: Db, client: FirebaseRestClient): Promise<string[]> {
  const due = rowsOf(
    await db.execute(sql`
      select id, path, value from (
        select distinct on (path) id, path, value, next_attempt_at
        from firebase_outbox where sent_at is null order by path, id desc
      ) newest
      where next_attempt_at <= now()
      order by id limit ${PER_PASS}`),
  );
  const sent: string[] = [];
  for (const row of due) {
    const id = Number(row.id);
    const path = String(row.path);
    try {
      if (row.value === null) await client.delete(path);
      else await client.put(path, row.value);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await db.execute(sql`
        update firebase_outbox set attempts = attempts + 1, last_error = ${message.slice(0, 500)},
          next_attempt_at = now() + least(power(2, attempts + 1), ${MAX_RETRY_S}) * interval '1 second'
        where id = ${id}`);
      continue;
    }
    // The ones queued before it were never sent: no echo of theirs will come.
    await db.execute(sql`
      update firebase_outbox set sent_at = now(), echoed_at = case when id < ${id} then now() end
      where path = ${path} and id <= ${id} and sent_at is null`);
    sent.push(path);
  }
  return sent;
}

/**
 * What to do with a node as Firebase now holds it: `pending` when the console has a write for it
 * on its way (the console's newer value wins), `echo` when it is the console's own write coming
 * back (each sent write is recognised once), else `apply`.
 */
export async function classifyIncoming(
  tx: DbExecutor,
  path: string,
  value: unknown,
): Promise<'pending' | 'echo' | 'apply'> {
  const rows = rowsOf(
    await tx.execute(sql`
      select id, sent_at is null as waiting from firebase_outbox
      where path = ${path} and (sent_at is null or (echoed_at is null
        and sent_at > now() - ${ECHO_WINDOW}::interval
        and value is not distinct from ${value === null ? null : JSON.stringify(value)}::jsonb))
      order by sent_at is null desc, id limit 1`),
  );
  const [row] = rows;
  if (!row) return 'apply';
  if (row.waiting === true) return 'pending';
  await tx.execute(sql`update firebase_outbox set echoed_at = now() where id = ${Number(row.id)}`);
  return 'echo';
}

/** Forgets writes sent more than a day ago. */
export async function pruneSentWrites(db: Db): Promise<void> {
  await db.execute(sql`delete from firebase_outbox where sent_at < now() - ${KEPT}::interval`);
}
