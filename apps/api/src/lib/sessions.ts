import { and, eq, isNull, sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { LANGUAGES, type Language, type Role } from '@bmet/shared/constants';
import type { Db } from '../db/client';
import { queryShapes } from '../db/query-shapes';
import { rowReader } from '../db/row-reader';
import { accounts, sessions } from '../db/schema';

/** A stored language, or null for none (or one this version no longer offers). */
export function asLanguage(value: string | null): Language | null {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : null;
}

const sessionFields = {
  id: accounts.id,
  email: accounts.email,
  displayName: accounts.displayName,
  role: accounts.role,
  state: accounts.state,
  dealerId: accounts.dealerId,
  language: accounts.language,
};
const readSession = rowReader(sessionFields);
const sessionShapes = queryShapes();

/**
 * The account behind a live session: not revoked, not expired, account not disabled. Every
 * authenticated request asks it, so its statement is built once (db/query-shapes.ts) and its row
 * read without Drizzle's mapping (db/row-reader.ts): building it took Drizzle a few percent of
 * the server's CPU on every request.
 */
export async function findActiveSession(db: Db, sessionId: string, accountId: string) {
  const { query } = sessionShapes(
    'active',
    { sessionId, accountId, now: new Date().toISOString() },
    (values) => ({
      query: db
        .select(sessionFields)
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(
          and(
            sql`${sessions.id} = ${values.sessionId}::uuid`,
            sql`${sessions.accountId} = ${values.accountId}::uuid`,
            isNull(sessions.revokedAt),
            sql`${sessions.expiresAt} > ${values.now}::timestamptz`,
            sql`${accounts.disabled} = false`,
            isNull(accounts.deletedAt),
          ),
        )
        .limit(1),
    }),
  );
  const [row] = await readSession<Pick<typeof accounts.$inferSelect, keyof typeof sessionFields>>(db, query);
  return row ? { ...row, role: row.role as Role, language: asLanguage(row.language) } : null;
}

type ActiveSession = NonNullable<Awaited<ReturnType<typeof findActiveSession>>>;

/** How long a session found active is believed without asking the database again, at most. */
export const SESSION_BELIEVED_MS = 1_000;
const SESSIONS_REMEMBERED = 10_000;

/**
 * The sessions found active lately, so that a staff member's run of requests costs one lookup a
 * second instead of one each (the lookup was a round trip to the database on every request).
 *
 * A session's access ends as it does without this, within 0.1 s on every instance:
 * - the database announces every change that can end or alter a session (it revoked, its account
 *   disabled, deleted, moved or renamed) to every server on it, whoever made the change (the
 *   triggers of migrations 0006 and 0039, heard through `subscribe`); every remembered session is
 *   forgotten the moment an announcement arrives;
 * - a change made through this very server may answer its caller before the announcement comes
 *   back: every request that can write (`changed`, called before its answer is sent) makes every
 *   remembered session be looked up again;
 * - a lookup that was under way when an announcement arrived is not remembered;
 * - whatever else (an announcement lost with its connection) ends at the latest after
 *   SESSION_BELIEVED_MS.
 * A database that cannot announce (`listening` false) is asked on every request.
 */
export function rememberSessions(options: {
  listening: boolean;
  subscribe: (listener: () => void) => () => void;
}) {
  const remembered = new LRUCache<
    string,
    { session: ActiveSession; accountId: string; until: number; era: number }
  >({
    max: SESSIONS_REMEMBERED,
  });
  // Moves on at every announcement and every local write: what was found before is not trusted
  // after. Announcements are rare (a sign-out, an account changed), so forgetting every session at
  // each costs one lookup per signed-in staff member.
  let era = 0;
  const unsubscribe = options.subscribe(() => {
    era++;
  });
  return {
    async find(db: Db, sessionId: string, accountId: string): Promise<ActiveSession | null> {
      const entry = remembered.get(sessionId);
      if (entry && entry.era === era && entry.accountId === accountId && entry.until > Date.now())
        return entry.session;
      const askedIn = era;
      const session = await findActiveSession(db, sessionId, accountId);
      if (session && options.listening && era === askedIn) {
        remembered.set(sessionId, { session, accountId, until: Date.now() + SESSION_BELIEVED_MS, era });
      }
      return session;
    },
    /** A request that may have written is about to answer: nothing found before it is trusted. */
    changed() {
      era++;
    },
    close: unsubscribe,
  };
}

export type SessionMemory = ReturnType<typeof rememberSessions>;
