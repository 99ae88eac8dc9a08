import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, fieldError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { profileResponseSchema, updateProfileBodySchema } from '@bmet/shared/schemas/account';
import { messageResponseSchema } from '@bmet/shared/schemas/common';
import { changeOwnPasswordBodySchema } from '@bmet/shared/schemas/password';
import type { Db } from '../../db/client';
import { recordAudit } from '../../infra/audit';
import { errorResponses } from '../../lib/error-responses';
import { currentUser, type SessionUser } from '../../plugins/authentication';
import { deviceEntryOf, readDeviceEntries } from './device-cookie';
import { hashPassword, passwordProblem } from './password';
import { updateProfile } from './profile';
import { findAccountById, revokeAccountSessions, setPasswordHash, voidResetTokens } from './repository';
import { checkSignInPassword } from './sign-in-password';
import { clearAccountFailures, type SignInThrottle } from './sign-in-throttle';
import type { CurrentUser } from '@bmet/shared/schemas/auth';

export type OwnAccountRoutesOptions = {
  db: Db;
  jwtSecret: string;
  /** Signs the device cookie (device-cookie.ts). */
  deviceKey: Buffer;
  /** The sign-in's throttle: a wrong current password is a failed sign-in (decision 033). */
  throttle: SignInThrottle;
  lockedError: (seconds: number) => AppError;
  publicUser: (user: SessionUser) => CurrentUser;
};

/**
 * Every signed-in user's own name and password (decision 033): the spec gives these to admins
 * only, on screens of their own, which stay as they are.
 */
export const ownAccountRoutes: FastifyPluginAsyncZod<OwnAccountRoutesOptions> = async (app, options) => {
  const { db, throttle } = options;

  app.patch(
    '/auth/me/name',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: "Change the signed-in user's display name (every role; the account menu)",
        body: updateProfileBodySchema,
        response: { 200: profileResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { displayName } = request.body;
      await updateProfile(db, { id: user.id, requestId: request.id }, user, { displayName });
      return { data: { ...options.publicUser(user), displayName } };
    },
  );

  app.post(
    '/auth/me/password',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary:
          "Change the signed-in user's password, given the current one; the account's other sessions end",
        description:
          'Every role. A wrong current password counts as a failed sign-in of the account, under the same limits (429 once they are reached), and answers 400 naming `currentPassword`. The new password follows the password rules and differs from the current one. This session stays signed in; reset links of the account stop working.',
        body: changeOwnPasswordBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { currentPassword, newPassword } = request.body;
      // What needs no password check is answered first, and costs no attempt.
      if (!currentPassword) throw fieldError('currentPassword', m.enterCurrentPassword());
      const problem = passwordProblem('newPassword', newPassword);
      if (problem) throw problem;
      if (newPassword === currentPassword) throw fieldError('newPassword', m.newPasswordSameAsCurrent());

      const account = await findAccountById(db, user.id);
      if (!account || account.deletedAt) throw new AppError('UNAUTHORIZED', m.sessionExpired());
      // Held to the limits a sign-in from this browser would be: its own device entry's failures,
      // or, from a browser without one, the account's and the address's.
      const device = deviceEntryOf(readDeviceEntries(request, options.deviceKey), account.id);
      const admission = await throttle.admit({
        email: account.email,
        address: request.ip || 'gone',
        deviceNonce: device?.nonce ?? null,
      });
      if (!admission.admitted) {
        app.metrics.signInRefusals.inc({ reason: 'throttled' });
        throw options.lockedError(admission.retryAfterSeconds);
      }
      let right = false;
      try {
        right = await checkSignInPassword(db, account, currentPassword, options.jwtSecret);
      } finally {
        await admission.finish(right ? 'right' : 'wrong');
      }
      if (!right) {
        app.metrics.signInFailures.inc({ reason: 'wrong_current_password' });
        // A 400, not a 401: the session is fine, and a 401 signs the console out.
        throw fieldError('currentPassword', m.currentPasswordWrong());
      }

      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        const changedAt = await setPasswordHash(tx, account.id, passwordHash);
        await revokeAccountSessions(tx, account.id, { except: user.sessionId });
        await voidResetTokens(tx, account.id);
        await recordAudit(
          tx,
          { id: user.id, requestId: request.id },
          {
            action: 'update',
            resource: 'passwords',
            resourceId: account.id,
            before: { passwordChangedAt: account.passwordChangedAt?.toISOString() ?? null },
            after: { passwordChangedAt: changedAt.toISOString() },
          },
        );
      });
      await clearAccountFailures(db, account.email);
      request.log.info({ accountId: account.id }, 'own password changed');
      return { data: { message: m.ownPasswordChanged() } };
    },
  );
};
