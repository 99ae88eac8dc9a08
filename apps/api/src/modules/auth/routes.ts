import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { State } from '@bmet/shared/constants';
import { meResponseSchema, signInBodySchema, type CurrentUser } from '@bmet/shared/schemas/auth';
import { signInStepResponseSchema } from '@bmet/shared/schemas/second-factor';
import {
  profileResponseSchema,
  updateLanguageBodySchema,
  updateProfileBodySchema,
} from '@bmet/shared/schemas/account';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser, type SessionUser } from '../../plugins/authentication';
import { checkSignInPassword } from './sign-in-password';
import { updateProfile } from './profile';
import { passwordRoutes, type MailSettings } from './password-routes';
import { findAccountByEmail, revokeSession } from './repository';
import { createSignInThrottle } from './sign-in-throttle';
import { startSession } from './start-session';
import { roleLabel } from '@bmet/shared/role-label';
import type { Role } from '@bmet/shared/constants';
import {
  deviceCookieKey,
  deviceEntryOf,
  issueDeviceEntry,
  readDeviceEntries,
  remembersSecondFactor,
} from './device-cookie';
import { webauthnSettings } from './passkeys';
import { createChallenge, secondFactorState, secondStepMethods } from './second-factor';
import { secondFactorRoutes } from './second-factor-routes';
import { ownAccountRoutes } from './own-account-routes';

/**
 * buildApp registers this plugin with the whole configuration object it was given (server.ts
 * gives it all of Config), so `mail` arrives from there; without it, mails are printed to the log.
 */
export type AuthRoutesOptions = {
  db: Db;
  jwtSecret: string;
  tokenTtlHours: number;
  mail?: MailSettings;
  /** Live sessions an account keeps (10 when unset): a sign-in beyond them ends the oldest. */
  sessionsPerAccount?: number;
  /** Roles whose accounts must pass a second factor (none when unset). */
  requireSecondFactor?: Role[];
  env?: string;
};

function lockedError(seconds: number): AppError {
  return new AppError('RATE_LIMITED', m.tooManyAttempts({ minutes: Math.ceil(seconds / 60) }), {
    headers: { 'retry-after': String(seconds) },
  });
}

/** What the console learns of the signed-in user. */
function publicUser(user: SessionUser): CurrentUser {
  return {
    uid: user.id,
    displayName: user.displayName,
    email: user.email,
    role: user.role,
    state: (user.state as State | null) ?? null,
    language: user.language,
  };
}

const errors = errorResponses(400, 401, 403, 429);

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, options) => {
  const { db } = options;
  const deviceKey = deviceCookieKey(options.jwtSecret);
  const requireSecondFactor = options.requireSecondFactor ?? [];
  const throttle = createSignInThrottle(db);
  await app.register(passwordRoutes, { ...options, deviceKey });
  await app.register(secondFactorRoutes, {
    ...options,
    requireSecondFactor,
    webauthn: webauthnSettings(options.mail?.appUrl ?? 'http://localhost:3000', options.env),
    deviceKey,
    throttle,
    lockedError,
  });
  await app.register(ownAccountRoutes, {
    db,
    jwtSecret: options.jwtSecret,
    deviceKey,
    throttle,
    lockedError,
    publicUser,
  });

  app.post(
    '/auth/sign-in',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Sign in on a role tab; answers an ID token carrying the role claim, or the second step when the account has a second factor',
        body: signInBodySchema,
        response: { 200: signInStepResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { email, password, role } = request.body;
      // The browser is trusted for the account it signed in as before (device-cookie.ts). Unknown
      // emails find no account and go the untrusted way, as any browser new to an account does.
      const account = await findAccountByEmail(db, email);
      const device = deviceEntryOf(readDeviceEntries(request, deviceKey), account?.id);
      const admission = await throttle.admit({
        email,
        address: request.ip || 'gone',
        deviceNonce: device?.nonce ?? null,
      });
      if (!admission.admitted) {
        app.metrics.signInRefusals.inc({ reason: 'throttled' });
        throw lockedError(admission.retryAfterSeconds);
      }

      let passwordOk = false;
      try {
        passwordOk = await checkSignInPassword(db, account, password, options.jwtSecret);
      } finally {
        // Only a wrong password counts.
        await admission.finish(account && passwordOk ? 'right' : 'wrong');
      }
      if (!account || !passwordOk) {
        app.metrics.signInFailures.inc({ reason: account ? 'wrong_password' : 'unknown_email' });
        throw new AppError('UNAUTHORIZED', m.invalidCredentials());
      }
      if (account.disabled) {
        app.metrics.signInRefusals.inc({ reason: 'disabled' });
        throw new AppError('FORBIDDEN', m.accountDisabled());
      }
      if (account.role !== role) {
        app.metrics.signInRefusals.inc({ reason: 'wrong_tab' });
        throw new AppError('FORBIDDEN', m.wrongTab({ role: roleLabel(role) }));
      }

      // A second step follows when the account has a second factor this browser did not pass
      // within 30 days, or its role requires one it has not set up.
      if (!remembersSecondFactor(device, account.secondFactorVersion)) {
        const methods = secondStepMethods(
          await secondFactorState(db, account.id),
          account.role,
          requireSecondFactor,
        );
        if (methods) {
          const challenge = await createChallenge(db, { purpose: 'sign-in', accountId: account.id, role });
          return { data: { secondFactor: { challenge, methods } } };
        }
      }
      issueDeviceEntry(request, reply, deviceKey, account, { rememberSecondFactor: false });
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
        response: { 204: z.null(), ...errorResponses(401) },
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
        response: { 200: meResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      return { data: publicUser(currentUser(request)) };
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
      await updateProfile(db, { id: user.id, requestId: request.id }, user, { displayName });
      return { data: { ...publicUser(user), displayName } };
    },
  );

  app.put(
    '/auth/me/language',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'Remember the language the signed-in user reads the console in (every role)',
        body: updateLanguageBodySchema,
        response: { 200: meResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { language } = request.body;
      if (language !== user.language) {
        await updateProfile(db, { id: user.id, requestId: request.id }, user, { language });
      }
      return { data: { ...publicUser(user), language } };
    },
  );
};
