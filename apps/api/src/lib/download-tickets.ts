import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/client';
import { downloadTickets } from '../db/schema';
import { findActiveSession } from './sessions';

/**
 * Download tickets (docs/decisions/013-streamed-exports.md): the browser's download manager
 * cannot send the bearer token, so a signed-in page asks for a ticket for one export (its path
 * and query) and the download carries the ticket in its address instead. A ticket works once,
 * within a minute, and only while the session that asked for it is active.
 */

/** How long a ticket may wait before its download starts. */
export const DOWNLOAD_TICKET_TTL_MS = 60_000;

const TICKET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

function hashTicket(ticket: string): string {
  return createHash('sha256').update(ticket, 'utf8').digest('hex');
}

/**
 * A query string in one spelling whatever the order of its parameters, without the ticket: what
 * a ticket is bound to, compared as written when it is used.
 */
export function canonicalQuery(search: string): string {
  const params = new URLSearchParams(search);
  params.delete('ticket');
  params.sort();
  return params.toString();
}

/** Splits a request's address into its path and its canonical query. */
export function splitAddress(url: string): { path: string; query: string } {
  const at = url.indexOf('?');
  return at === -1
    ? { path: url, query: '' }
    : { path: url.slice(0, at), query: canonicalQuery(url.slice(at + 1)) };
}

/** Writes the ticket into an address (path and canonical query), as the download will ask for it. */
export function addressWithTicket(path: string, query: string, ticket: string): string {
  return `${path}?${query ? `${query}&` : ''}ticket=${ticket}`;
}

/** A new ticket for one session's download of one path and query. */
export async function issueDownloadTicket(
  db: Db,
  input: { sessionId: string; accountId: string; path: string; query: string },
  now = new Date(),
): Promise<{ ticket: string; expiresAt: Date }> {
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + DOWNLOAD_TICKET_TTL_MS);
  await db.insert(downloadTickets).values({ ...input, tokenHash: hashTicket(ticket), expiresAt });
  return { ticket, expiresAt };
}

/**
 * Uses a ticket up for a request to `url` and answers the session it stands for, or null: for a
 * ticket unknown, used, expired, issued for another address, or whose session has ended. The
 * ticket is marked used in the same statement that finds it, so that two requests racing with one
 * ticket (on one instance or two) cannot both pass.
 */
export async function redeemDownloadTicket(db: Db, ticket: string, url: string) {
  if (!TICKET_FORMAT.test(ticket)) return null;
  const { path, query } = splitAddress(url);
  const now = new Date();
  const [row] = await db
    .update(downloadTickets)
    .set({ usedAt: now })
    .where(
      and(
        eq(downloadTickets.tokenHash, hashTicket(ticket)),
        isNull(downloadTickets.usedAt),
        gt(downloadTickets.expiresAt, now),
        eq(downloadTickets.path, path),
        eq(downloadTickets.query, query),
      ),
    )
    .returning({ sessionId: downloadTickets.sessionId, accountId: downloadTickets.accountId });
  if (!row) return null;
  const session = await findActiveSession(db, row.sessionId, row.accountId);
  return session ? { ...session, sessionId: row.sessionId } : null;
}

/** An address as logs may keep it: a ticket in its query is replaced, since it is a credential. */
export function withoutTicket(url: string): string {
  return url.replace(/([?&]ticket=)[^&#]*/g, '$1[redacted]');
}
