import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { MESSAGES } from '@bmet/shared/messages';
import { meResponseSchema, signInBodySchema, signInResponseSchema } from '@bmet/shared/schemas/auth';
import { errorBodySchema } from '@bmet/shared/errors';
import { profileResponseSchema, updateProfileBodySchema } from '@bmet/shared/schemas/account';
import type { Db } from '../../db/client';
import { currentUser } from '../../plugins/authentication';
import { verifyAgainstDummy, verifyPassword } from './password';
import { updateDisplayName } from './profile';
import type { ThrottleRule } from './repository';
import { passwordRoutes, type MailSettings } from './password-routes';
import { clearFailures, findAccountByEmail, forgiveAttempt, revokeSession, takeAttempt } from './repository';
import { startSession } from './start-session';

/**
 * buildApp registers this plugin with the whole configuration object it was given (server.ts
 * gives it all of Config), so `mail` arrives from there; without it, mails are printed to the log.
 */
export type AuthRoutesOptions = { db: Db; jwtSecret: string; tokenTtlHours: number; mail?: MailSettings };

const PER_ACCOUNT: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
const PER_ADDRESS: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
// Failures after the second are answered more and more slowly, up to this.
const MAX_SLOWDOWN_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function lockedError(until: Date): AppError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return new AppError('RATE_LIMITED', MESSAGES.tooManyAttempts(Math.ceil(seconds / 60)), {
    headers: { 'retry-after': String(seconds) },
  });
}

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { db } = options;
  await app.register(passwordRoutes, options);

  app.post(
    '/auth/sign-in',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in on a role tab; answers an ID token carrying the role claim',
        body: signInBodySchema,
        response: { 200: signInResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { email, password, role } = request.body;
      const accountKey = `email:${email}`;
      const addressKey = `ip:${request.ip}`;
      // Each attempt is counted before the password is checked, so parallel guesses share the limit.
      const forAccount = await takeAttempt(db, accountKey, PER_ACCOUNT);
      const forAddress = await takeAttempt(db, addressKey, PER_ADDRESS);
      const lockedUntil = forAccount.lockedUntil ?? forAddress.lockedUntil;
      if (lockedUntil) throw lockedError(lockedUntil);

      const account = await findAccountByEmail(db, email);
      const passwordOk = account
        ? await verifyPassword(account.passwordHash, password)
        : (await verifyAgainstDummy(password), false);

      if (!account || !passwordOk) {
        const failures = forAccount.attempts;
        if (failures > 2) await sleep(Math.min(250 * 2 ** (failures - 3), MAX_SLOWDOWN_MS));
        throw new AppError('UNAUTHORIZED', MESSAGES.invalidCredentials);
      }
      await clearFailures(db, accountKey);
      await forgiveAttempt(db, addressKey);
      if (account.disabled) throw new AppError('FORBIDDEN', MESSAGES.accountDisabled);
      if (account.role !== role) throw new AppError('FORBIDDEN', MESSAGES.wrongTab(role));

      const answer = await startSession(db, request, account, options);
      request.log.info({ accountId: account.id, role }, 'signed in');
      return answer;
    },
  );

  app.post(
    '/auth/sign-out',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'Revoke the current ID token',
        response: { 204: z.null(), 401: errorBodySchema },
      },
    },
    async (request, reply) => {
      await revokeSession(db, currentUser(request).sessionId);
      return reply.status(204).send(null);
    },
  );

  app.get(
    '/auth/me',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: meResponseSchema, 401: errorBodySchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return {
        data: {
          uid: user.id,
          displayName: user.displayName,
          email: user.email,
          role: user.role,
          state: (user.state as never) ?? null,
        },
      };
    },
  );

  app.patch(
    '/auth/me',
    {
      config: { access: ['profile', 'update'] },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in user's display name (the profile screen)",
        body: updateProfileBodySchema,
        response: { 200: profileResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { displayName } = request.body;
      await updateDisplayName(db, { id: user.id, requestId: request.id }, user.displayName, displayName);
      return {
        data: {
          uid: user.id,
          displayName,
          email: user.email,
          role: user.role,
          state: (user.state as never) ?? null,
        },
      };
    },
  );
};
