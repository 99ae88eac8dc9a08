import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Role } from '@bmet/shared/constants';
import { roleLabel } from '@bmet/shared/role-label';
import { signInResponseSchema } from '@bmet/shared/schemas/auth';
import { messageResponseSchema } from '@bmet/shared/schemas/common';
import {
  enrolBodySchema,
  enrolmentDoneResponseSchema,
  passkeyOptionsBodySchema,
  passkeyOptionsResponseSchema,
  passkeyRegisterBodySchema,
  passkeyRegistrationOptionsResponseSchema,
  passkeySignInBodySchema,
  recoveryCodesResponseSchema,
  resetSecondFactorBodySchema,
  secondFactorSignInBodySchema,
  secondFactorStatusResponseSchema,
  totpConfirmBodySchema,
  totpEnrolmentResponseSchema,
} from '@bmet/shared/schemas/second-factor';
import type { Db } from '../../db/client';
import { recordAudit } from '../../infra/audit';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { deviceEntryOf, issueDeviceEntry, readDeviceEntries } from './device-cookie';
import {
  accountPasskeys,
  authenticationOptions,
  checkPasskey,
  findPasskey,
  passkeySummary,
  registerPasskey,
  registrationOptions,
  removePasskey,
  type WebauthnSettings,
} from './passkeys';
import { findAccountByEmail, findAccountById, revokeAccountSessions } from './repository';
import {
  checkTotp,
  clearSecondFactor,
  confirmTotp,
  countChallengeFailure,
  createChallenge,
  endChallenge,
  findChallenge,
  forgetRememberedBrowsers,
  isEnrolled,
  issueRecoveryCodes,
  removeTotp,
  secondFactorState,
  setWebauthnChallenge,
  startTotpEnrolment,
  useRecoveryCode,
  type Challenge,
} from './second-factor';
import type { SignInThrottle } from './sign-in-throttle';
import { startSession } from './start-session';

type Account = NonNullable<Awaited<ReturnType<typeof findAccountById>>>;

export type SecondFactorRoutesOptions = {
  db: Db;
  jwtSecret: string;
  tokenTtlHours: number;
  sessionsPerAccount?: number;
  requireSecondFactor: readonly Role[];
  webauthn: WebauthnSettings;
  deviceKey: Buffer;
  throttle: SignInThrottle;
  lockedError: (seconds: number) => AppError;
};

// The challenge's own field names it, so that a client can tell "sign in again" from a wrong code.
const signInAgain = () =>
  new AppError('UNAUTHORIZED', m.secondFactorSignInAgain(), {
    fieldErrors: { challenge: [m.secondFactorSignInAgain()] },
  });
const wrongCode = () =>
  new AppError('UNAUTHORIZED', m.secondFactorWrongCode(), {
    fieldErrors: { code: [m.secondFactorWrongCode()] },
  });
const passkeyRefused = () => new AppError('UNAUTHORIZED', m.secondFactorPasskeyRefused());

/**
 * The second factor: the second step of a sign-in, sign-in by passkey alone, enrolment (by a
 * signed-in user, or during a sign-in whose role requires a second factor not yet set up), the
 * user's own methods, and an admin's reset of another account's.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod<SecondFactorRoutesOptions> = async (app, options) => {
  const { db, throttle, deviceKey, webauthn } = options;

  /** Ends a sign-in: the browser becomes trusted for the account, and the session opens. */
  async function completeSignIn(
    request: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    remember: boolean,
  ) {
    issueDeviceEntry(request, reply, deviceKey, account, { rememberSecondFactor: remember });
    const answer = await startSession(db, request, account, options);
    request.log.info({ accountId: account.id, role: account.role }, 'signed in');
    return answer;
  }

  /** The account of a live sign-in challenge that may still sign in (it was not disabled since). */
  async function signInChallenge(token: string): Promise<{ challenge: Challenge; account: Account }> {
    const challenge = await findChallenge(db, token, 'sign-in');
    const account = challenge?.accountId ? await findAccountById(db, challenge.accountId) : null;
    if (!challenge || !account || account.deletedAt) throw signInAgain();
    if (account.disabled) throw new AppError('FORBIDDEN', m.accountDisabled());
    return { challenge, account };
  }

  /**
   * Who is enrolling: the signed-in user, or the account of a sign-in that must set up a second
   * factor first. A sign-in challenge never adds a method to an account that has one (the password
   * alone must not be enough to add another).
   */
  async function enroller(
    request: FastifyRequest,
    challengeToken: string | undefined,
  ): Promise<{ account: Account; viaSignIn: boolean }> {
    if (challengeToken) {
      const { account } = await signInChallenge(challengeToken);
      if (isEnrolled(await secondFactorState(db, account.id))) throw signInAgain();
      return { account, viaSignIn: true };
    }
    if (!request.user) throw new AppError('UNAUTHORIZED', m.unauthorized());
    const account = await findAccountById(db, request.user.id);
    if (!account) throw new AppError('UNAUTHORIZED', m.sessionExpired());
    return { account, viaSignIn: false };
  }

  /** After a method is added: recovery codes if it was the first, and the session of a sign-in. */
  async function enrolmentDone(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      account: Account;
      viaSignIn: boolean;
      wasEnrolled: boolean;
      challenge?: string;
      remember: boolean;
    },
  ) {
    const recoveryCodes = input.wasEnrolled ? null : await issueRecoveryCodes(db, input.account.id);
    await recordAudit(
      db,
      { id: input.account.id, requestId: request.id },
      {
        action: 'create',
        resource: 'second-factor',
        resourceId: input.account.id,
        before: null,
        after: null,
      },
    );
    let signIn = null;
    if (input.viaSignIn && input.challenge) {
      if (!(await endChallenge(db, input.challenge))) throw signInAgain();
      signIn = (await completeSignIn(request, reply, input.account, input.remember)).data;
    }
    return { data: { recoveryCodes, signIn } };
  }

  const publicRoute = { config: { access: 'public' as const } };

  app.post(
    '/auth/sign-in/second-factor',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary: 'The second step of a sign-in: an authenticator code, a recovery code or a passkey',
        body: secondFactorSignInBodySchema,
        response: { 200: signInResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const { challenge, account } = await signInChallenge(body.challenge);
      const device = deviceEntryOf(readDeviceEntries(request, deviceKey), account.id);
      const admission = await throttle.admit({
        email: account.email,
        address: request.ip || 'gone',
        deviceNonce: device?.nonce ?? null,
      });
      if (!admission.admitted) throw options.lockedError(admission.retryAfterSeconds);

      let right = false;
      try {
        if (body.code) right = await checkTotp(db, options.jwtSecret, account.id, body.code);
        else if (body.recoveryCode) right = await useRecoveryCode(db, account.id, body.recoveryCode);
        else if (body.passkey && challenge.webauthnChallenge) {
          right = await checkPasskey(db, webauthn, request, {
            accountId: account.id,
            expectedChallenge: challenge.webauthnChallenge,
            response: body.passkey as AuthenticationResponseJSON,
            requireUserVerification: false,
          });
        }
      } finally {
        await admission.finish(right ? 'right' : 'wrong');
      }
      if (!right) {
        await countChallengeFailure(db, body.challenge);
        app.metrics.signInFailures.inc({ reason: 'wrong_second_factor' });
        if (body.passkey) throw passkeyRefused();
        if (body.recoveryCode) {
          throw new AppError('UNAUTHORIZED', m.secondFactorWrongRecoveryCode(), {
            fieldErrors: { recoveryCode: [m.secondFactorWrongRecoveryCode()] },
          });
        }
        throw wrongCode();
      }
      if (!(await endChallenge(db, body.challenge))) throw signInAgain();
      return completeSignIn(request, reply, account, body.remember);
    },
  );

  app.post(
    '/auth/passkey/options',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary:
          "What the browser asks a passkey: for a sign-in's second step (its challenge), or to sign in with a passkey alone",
        body: passkeyOptionsBodySchema,
        response: { 200: passkeyOptionsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      if (request.body.challenge) {
        const { account } = await signInChallenge(request.body.challenge);
        const options = await authenticationOptions(
          webauthn,
          await accountPasskeys(db, account.id),
          'preferred',
        );
        await setWebauthnChallenge(db, request.body.challenge, options.challenge);
        return { data: { challenge: request.body.challenge, options: { ...options } } };
      }
      const challenge = await createChallenge(db, { purpose: 'passkey-sign-in', accountId: null });
      const options = await authenticationOptions(webauthn, null, 'required');
      await setWebauthnChallenge(db, challenge, options.challenge);
      return { data: { challenge, options: { ...options } } };
    },
  );

  app.post(
    '/auth/sign-in/passkey',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary: 'Sign in with a passkey alone, on the tab of its role; answers an ID token',
        body: passkeySignInBodySchema,
        response: { 200: signInResponseSchema, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const { challenge: token, role, passkey } = request.body;
      const challenge = await findChallenge(db, token, 'passkey-sign-in');
      if (!challenge?.webauthnChallenge) throw signInAgain();
      const found = await findPasskey(db, passkey.id);
      const account = found ? await findAccountById(db, found.accountId) : null;
      const device = deviceEntryOf(readDeviceEntries(request, deviceKey), account?.id);
      const admission = await throttle.admit({
        email: account?.email ?? 'unknown passkey',
        address: request.ip || 'gone',
        deviceNonce: device?.nonce ?? null,
      });
      if (!admission.admitted) throw options.lockedError(admission.retryAfterSeconds);
      let right = false;
      try {
        right =
          account !== null &&
          (await checkPasskey(db, webauthn, request, {
            accountId: account.id,
            expectedChallenge: challenge.webauthnChallenge,
            response: passkey as AuthenticationResponseJSON,
            requireUserVerification: true,
          }));
      } finally {
        await admission.finish(right ? 'right' : 'wrong');
      }
      if (!right || !account || account.deletedAt) {
        app.metrics.signInFailures.inc({ reason: 'passkey_refused' });
        throw passkeyRefused();
      }
      if (!(await endChallenge(db, token))) throw signInAgain();
      if (account.disabled) throw new AppError('FORBIDDEN', m.accountDisabled());
      if (account.role !== role) throw new AppError('FORBIDDEN', m.wrongTab({ role: roleLabel(role) }));
      return completeSignIn(request, reply, account, false);
    },
  );

  app.get(
    '/auth/second-factor',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'What the signed-in user has set up as a second factor',
        response: { 200: secondFactorStatusResponseSchema, ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const state = await secondFactorState(db, user.id);
      return {
        data: {
          totp: state.totp,
          passkeys: (await accountPasskeys(db, user.id)).map(passkeySummary),
          recoveryCodesLeft: state.recoveryCodesLeft,
          required: options.requireSecondFactor.includes(user.role),
        },
      };
    },
  );

  app.post(
    '/auth/second-factor/totp',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary:
          'Start setting up an authenticator app (signed in, or with the challenge of a sign-in that must enrol)',
        body: enrolBodySchema,
        response: { 200: totpEnrolmentResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { account } = await enroller(request, request.body.challenge);
      return { data: await startTotpEnrolment(db, options.jwtSecret, account) };
    },
  );

  app.post(
    '/auth/second-factor/totp/confirm',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary:
          'End setting up an authenticator app with its first code; during a sign-in, it also signs in',
        body: totpConfirmBodySchema,
        response: { 200: enrolmentDoneResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { code, challenge, remember } = request.body;
      const { account, viaSignIn } = await enroller(request, challenge);
      const wasEnrolled = isEnrolled(await secondFactorState(db, account.id));
      if (!(await confirmTotp(db, options.jwtSecret, account.id, code))) {
        throw new AppError('VALIDATION', m.secondFactorWrongCode(), {
          fieldErrors: { code: [m.secondFactorWrongCode()] },
        });
      }
      return enrolmentDone(request, reply, { account, viaSignIn, wasEnrolled, challenge, remember });
    },
  );

  app.post(
    '/auth/second-factor/passkeys/options',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary: 'What the browser asks an authenticator to make a passkey',
        body: enrolBodySchema,
        response: { 200: passkeyRegistrationOptionsResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { account, viaSignIn } = await enroller(request, request.body.challenge);
      const options = await registrationOptions(db, webauthn, account);
      const challenge = viaSignIn
        ? request.body.challenge!
        : await createChallenge(db, { purpose: 'passkey-enrol', accountId: account.id });
      await setWebauthnChallenge(db, challenge, options.challenge);
      return { data: { challenge, options: { ...options } } };
    },
  );

  app.post(
    '/auth/second-factor/passkeys',
    {
      ...publicRoute,
      schema: {
        tags: ['auth'],
        summary: 'Keep a new passkey; during a sign-in, it also signs in',
        body: passkeyRegisterBodySchema,
        response: { 200: enrolmentDoneResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { challenge: token, passkey, name, remember } = request.body;
      const enrolling = await findChallenge(db, token, 'passkey-enrol');
      const viaSignIn = !enrolling;
      const { account } = enrolling
        ? { account: await ownerOf(request, enrolling) }
        : await enroller(request, token);
      const challenge = enrolling ?? (await findChallenge(db, token, 'sign-in'));
      if (!challenge?.webauthnChallenge) throw signInAgain();
      const wasEnrolled = isEnrolled(await secondFactorState(db, account.id));
      const kept = await registerPasskey(db, webauthn, request, {
        accountId: account.id,
        expectedChallenge: challenge.webauthnChallenge,
        response: passkey as RegistrationResponseJSON,
        name: name || m.passkeyDefaultName({}, { locale: request.language }),
      });
      if (!kept) throw new AppError('VALIDATION', m.secondFactorPasskeyRefused());
      if (enrolling) await endChallenge(db, token);
      return enrolmentDone(request, reply, { account, viaSignIn, wasEnrolled, challenge: token, remember });
    },
  );

  /** The signed-in owner of a passkey enrolment. */
  async function ownerOf(request: FastifyRequest, challenge: Challenge): Promise<Account> {
    const account =
      request.user && challenge.accountId === request.user.id
        ? await findAccountById(db, request.user.id)
        : null;
    if (!account) throw new AppError('UNAUTHORIZED', m.unauthorized());
    return account;
  }

  /** Refuses to remove the last method of an account whose role requires one. */
  async function checkCanRemove(accountId: string, role: Role, removing: 'totp' | 'passkey') {
    if (!options.requireSecondFactor.includes(role)) return;
    const state = await secondFactorState(db, accountId);
    const left =
      (removing === 'totp' ? 0 : Number(state.totp)) + state.passkeys - (removing === 'passkey' ? 1 : 0);
    if (left < 1) throw new AppError('VALIDATION', m.secondFactorStillRequired());
  }

  async function afterRemoval(request: FastifyRequest, accountId: string, what: Record<string, unknown>) {
    await forgetRememberedBrowsers(db, accountId);
    const state = await secondFactorState(db, accountId);
    // With no method left, recovery codes have nothing to stand in for.
    if (!isEnrolled(state)) await clearSecondFactor(db, accountId);
    await recordAudit(
      db,
      { id: accountId, requestId: request.id },
      { action: 'delete', resource: 'second-factor', resourceId: accountId, before: what, after: null },
    );
  }

  app.delete(
    '/auth/second-factor/totp',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: "Remove the signed-in user's authenticator app",
        response: { 204: z.null(), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await checkCanRemove(user.id, user.role, 'totp');
      await removeTotp(db, user.id);
      await afterRemoval(request, user.id, { totp: true });
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/auth/second-factor/passkeys/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: "Remove one of the signed-in user's passkeys",
        params: z.object({ id: z.string().max(1024) }),
        response: { 204: z.null(), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      await checkCanRemove(user.id, user.role, 'passkey');
      if (!(await removePasskey(db, user.id, request.params.id))) {
        throw new AppError('NOT_FOUND', m.passkeyNotFound());
      }
      await afterRemoval(request, user.id, { passkey: request.params.id });
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/auth/second-factor/recovery-codes',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'Ten new recovery codes for the signed-in user (the old ones stop working)',
        response: { 200: recoveryCodesResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (!isEnrolled(await secondFactorState(db, user.id))) {
        throw new AppError('VALIDATION', m.secondFactorNotEnrolled());
      }
      const recoveryCodes = await issueRecoveryCodes(db, user.id);
      await recordAudit(
        db,
        { id: user.id, requestId: request.id },
        { action: 'issue', resource: 'second-factor', resourceId: user.id, before: null, after: null },
      );
      return { data: { recoveryCodes } };
    },
  );

  app.post(
    '/admin/reset-second-factor',
    {
      config: { access: ['passwords', 'update'] },
      schema: {
        tags: ['passwords'],
        summary:
          "Clear an account's second factor (it sets up a new one at its next sign-in); its sessions end",
        body: resetSecondFactorBodySchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const account = await findAccountByEmail(db, request.body.email);
      if (!account || account.deletedAt) throw new AppError('NOT_FOUND', m.noAccountWithEmail());
      await db.transaction(async (tx) => {
        const removed = await clearSecondFactor(tx, account.id);
        await revokeAccountSessions(tx, account.id, {
          except: account.id === caller.id ? caller.sessionId : undefined,
        });
        await recordAudit(
          tx,
          { id: caller.id, requestId: request.id },
          {
            action: 'reset',
            resource: 'second-factor',
            resourceId: account.id,
            before: removed,
            after: null,
          },
        );
      });
      return { data: { message: m.secondFactorResetDone({ email: account.email }) } };
    },
  );
};
