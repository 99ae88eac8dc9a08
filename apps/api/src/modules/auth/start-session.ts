import type { FastifyRequest } from 'fastify';
import type { Role } from '@bmet/shared/constants';
import type { SignInResponse } from '@bmet/shared/schemas/auth';
import type { DbExecutor } from '../../db/client';
import { asLanguage } from '../../lib/sessions';
import { createSession, revokeSessionsBeyond } from './repository';
import { signIdToken } from '../../lib/id-tokens';

/** Live sessions an account keeps unless configured (SESSIONS_PER_ACCOUNT). */
export const DEFAULT_SESSIONS_PER_ACCOUNT = 10;

type SessionAccount = {
  id: string;
  role: Role;
  email: string;
  displayName: string | null;
  language?: string | null;
};

/**
 * Opens a server-side session for an account and signs the ID token that names it: the one way
 * a token comes to exist (sign-in, password reset, and the tests, fuzzing and benchmarks that act
 * as staff).
 */
export async function openSession(
  db: DbExecutor,
  account: SessionAccount,
  options: {
    jwtSecret: string;
    expiresAt: Date;
    /** When the session itself ends, if not with its token (tests of expiry use it). */
    sessionExpiresAt?: Date;
    ip?: string | null;
    userAgent?: string | null;
  },
): Promise<{ idToken: string; sessionId: string }> {
  const session = await createSession(db, {
    accountId: account.id,
    expiresAt: options.sessionExpiresAt ?? options.expiresAt,
    ip: options.ip ?? null,
    userAgent: options.userAgent ?? null,
  });
  const idToken = await signIdToken(
    {
      accountId: account.id,
      sessionId: session.id,
      role: account.role,
      email: account.email,
      name: account.displayName,
    },
    options.jwtSecret,
    options.expiresAt,
  );
  return { idToken, sessionId: session.id };
}

/**
 * Opens a session for an account and signs its ID token: what a sign-in answers, and what a
 * password reset answers so that the user is signed in fresh.
 */
export async function startSession(
  db: DbExecutor,
  request: FastifyRequest,
  account: SessionAccount,
  options: { jwtSecret: string; tokenTtlHours: number; sessionsPerAccount?: number },
): Promise<SignInResponse> {
  const expiresAt = new Date(Date.now() + options.tokenTtlHours * 3_600_000);
  const { idToken, sessionId } = await openSession(db, account, {
    jwtSecret: options.jwtSecret,
    expiresAt,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
  });
  // An account keeps a bounded number of live sessions (each may hold live streams): the newest
  // sign-in always gets in, and the oldest sessions end, their streams with them.
  await revokeSessionsBeyond(
    db,
    account.id,
    sessionId,
    options.sessionsPerAccount ?? DEFAULT_SESSIONS_PER_ACCOUNT,
  );
  return {
    data: {
      idToken,
      expirationTime: expiresAt.getTime(),
      role: account.role,
      language: asLanguage(account.language ?? null),
    },
  };
}
