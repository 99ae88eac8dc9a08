import type { FastifyRequest } from 'fastify';
import type { Role } from '@bmet/shared/constants';
import type { SignInResponse } from '@bmet/shared/schemas/auth';
import type { DbExecutor } from '../../infra/audit';
import { createSession } from './repository';
import { signIdToken } from './tokens';

/**
 * Opens a session for an account and signs its ID token: what a sign-in answers, and what a
 * password reset answers so that the user is signed in fresh.
 */
export async function startSession(
  db: DbExecutor,
  request: FastifyRequest,
  account: { id: string; role: Role; email: string; displayName: string | null },
  options: { jwtSecret: string; tokenTtlHours: number },
): Promise<SignInResponse> {
  const expiresAt = new Date(Date.now() + options.tokenTtlHours * 3_600_000);
  const session = await createSession(db, {
    accountId: account.id,
    expiresAt,
    ip: request.ip,
    userAgent: request.headers['user-agent']?.slice(0, 500) ?? null,
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
    expiresAt,
  );
  return { data: { idToken, expirationTime: expiresAt.getTime(), role: account.role } };
}
