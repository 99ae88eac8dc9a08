import { and, eq, isNull, sql } from 'drizzle-orm';
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
