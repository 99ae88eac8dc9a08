import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Language } from '@bmet/shared/constants';
import { signInStepResponseSchema } from '@bmet/shared/schemas/second-factor';
import { messageResponseSchema } from '@bmet/shared/schemas/common';
import {
  adminEmailsResponseSchema,
  passwordResetConfirmBodySchema,
  passwordResetRequestBodySchema,
  updatePasswordBodySchema,
} from '@bmet/shared/schemas/password';
import type { Db } from '../../db/client';
import { recordAudit } from '../../infra/audit';
import { createMailer } from '../../infra/mailer';
import { errorResponses } from '../../lib/error-responses';
import { asLanguage } from '../../lib/sessions';
import { currentUser } from '../../plugins/authentication';
import { hashPassword, passwordProblem } from './password';
import {
  consumeResetToken,
  findAccountByEmail,
  findAdminEmails,
  findUsableResetToken,
  insertResetToken,
  takeAttempt,
  revokeAccountSessions,
  setPasswordHash,
  voidResetTokens,
  type ThrottleRule,
} from './repository';
import { clearAccountFailures } from './sign-in-throttle';
import { startSession } from './start-session';
import { deviceEntryOf, issueDeviceEntry, readDeviceEntries, remembersSecondFactor } from './device-cookie';
import { createChallenge, secondFactorState, secondStepMethods } from './second-factor';
import type { Role } from '@bmet/shared/constants';

export type MailSettings = { smtpUrl: string | undefined; from: string; appUrl: string };

export type PasswordRoutesOptions = {
  db: Db;
  jwtSecret: string;
  tokenTtlHours: number;
  mail?: MailSettings;
  sessionsPerAccount?: number;
  requireSecondFactor?: Role[];
  /** Signs the device cookie (device-cookie.ts). */
  deviceKey: Buffer;
};

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 30 * 60_000;
// Reset mails are counted with the sign-in attempt counters (in the database, so the limits hold
// across instances), under keys of their own. Known and unknown emails count alike. Past a limit,
// the request is answered as any other and no mail goes out: the answer never tells, and never
// refuses, so nobody can block an owner's reset by asking first.
/** Mails to one email for requests from browsers without the owner's device cookie. */
export const RESET_MAILS_PER_EMAIL: ThrottleRule = {
  maxFailures: 5,
  windowMs: 60 * 60_000,
  lockMs: 60 * 60_000,
};
/** Requests from one address without the owner's device cookie, any emails. */
const RESET_PER_ADDRESS: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** 32 random bytes in base64url: what a reset link carries. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Only this hash of a reset token is stored. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const invalidLink = () => new AppError('VALIDATION', m.resetLinkInvalid());

/** The reset mail, in the language its reader chose for the console (else the one the request came in). */
function resetMail(input: { name: string | null; email: string; link: string; language: Language }) {
  const locale = { locale: input.language };
  return {
    to: input.email,
    subject: m.resetMailSubject({}, locale),
    text: [
      m.resetMailGreeting({ name: input.name || input.email }, locale),
      '',
      m.resetMailRequested({ email: input.email }, locale),
      m.resetMailOpenLink({}, locale),
      '',
      input.link,
      '',
      m.resetMailOnce({}, locale),
      '',
      m.productTitle(),
    ].join('\n'),
  };
}

/**
 * Password reset by email (public), the admins' update-password screen and its list of admins.
 * A reset answers the same whatever the email; the mail goes out after the answer, so that
 * neither the answer nor its timing tells whether an account exists.
 */
export const passwordRoutes: FastifyPluginAsyncZod<PasswordRoutesOptions> = async (app, options) => {
  const { db } = options;
  const appUrl = options.mail?.appUrl ?? 'http://localhost:3000';
  const mailer = createMailer({
    smtpUrl: options.mail?.smtpUrl,
    from: options.mail?.from ?? 'Book-My-ETaxi <no-reply@bookmyetaxi.in>',
    logger: app.log,
  });
  // Mails still on their way when the server stops are awaited before the database closes.
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(pending);
    mailer.close();
  });

  async function sendResetLink(
    account: { id: string; email: string; displayName: string | null; language: string | null },
    requestedIp: string,
    requestLanguage: Language,
  ) {
    const token = randomBytes(32).toString('base64url');
    await insertResetToken(db, {
      accountId: account.id,
      tokenHash: hashResetToken(token),
      expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
      requestedIp,
    });
    const link = `${appUrl}/reset-password?token=${token}`;
    await mailer.send(
      resetMail({
        name: account.displayName,
        email: account.email,
        link,
        language: asLanguage(account.language) ?? requestLanguage,
      }),
    );
  }

  /**
   * Whether a reset request may send its mail. The owner's own browser (it holds the account's
   * device cookie) always may; others are capped per email and per address.
   */
  async function maySendResetMail(request: FastifyRequest, email: string, accountId: string | undefined) {
    const trusted = deviceEntryOf(readDeviceEntries(request, options.deviceKey), accountId) !== null;
    if (trusted) return true;
    // Counted before anything is sent, so a burst of requests cannot slip past the limit.
    const keys = [
      [`reset-mail:${email}`, RESET_MAILS_PER_EMAIL],
      [`reset-ip:${request.ip}`, RESET_PER_ADDRESS],
    ] as const;
    for (const [key, rule] of keys) {
      if ((await takeAttempt(db, key, rule)).lockedUntil) return false;
    }
    return true;
  }

  app.post(
    '/auth/password-reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link; answers the same whether or not the email is known',
        description:
          "Never refused: past 5 mails an hour to one email (or 20 requests in 15 minutes from one address), the answer is the same and no mail goes out, unless the request comes from the owner's own browser (its device cookie). The link works once, for 30 minutes.",
        body: passwordResetRequestBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      const account = await findAccountByEmail(db, email);
      const send = await maySendResetMail(request, email, account?.id);
      if (!send)
        request.log.warn({ accountId: account?.id }, 'password reset mail held back (limit reached)');
      if (send && account && !account.disabled && !account.deletedAt) {
        const sending = sendResetLink(account, request.ip, request.language)
          .catch((error: unknown) => {
            request.log.error({ err: error, accountId: account.id }, 'password reset mail not sent');
          })
          .finally(() => pending.delete(sending));
        pending.add(sending);
      }
      return reply.status(202).send({ data: { message: m.resetRequested() } });
    },
  );

  app.post(
    '/auth/password-reset/confirm',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          "Set a new password with a reset link's token; ends every session and signs in fresh (or answers the second step when the account has a second factor)",
        body: passwordResetConfirmBodySchema,
        response: { 200: signInStepResponseSchema, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { token, password } = request.body;
      if (!TOKEN_FORMAT.test(token)) throw invalidLink();
      const found = await findUsableResetToken(db, hashResetToken(token));
      if (!found) throw invalidLink();
      const problem = passwordProblem('password', password);
      if (problem) throw problem;

      const { account } = found;
      const passwordHash = await hashPassword(password);
      // The mailbox and a new password are one factor: a second one, if the account has it (or
      // its role requires it), is still asked before a session opens.
      const device = deviceEntryOf(readDeviceEntries(request, options.deviceKey), account.id);
      const methods = remembersSecondFactor(device, account.secondFactorVersion)
        ? null
        : secondStepMethods(
            await secondFactorState(db, account.id),
            account.role,
            options.requireSecondFactor ?? [],
          );
      const answer = await db.transaction(async (tx) => {
        // Checked again under the write: of two uses of one link, only one gets here.
        if (!(await consumeResetToken(tx, found.id))) throw invalidLink();
        const changedAt = await setPasswordHash(tx, account.id, passwordHash);
        await revokeAccountSessions(tx, account.id);
        await voidResetTokens(tx, account.id);
        await recordAudit(
          tx,
          { id: account.id, requestId: request.id },
          {
            action: 'reset',
            resource: 'passwords',
            resourceId: account.id,
            before: { passwordChangedAt: account.passwordChangedAt?.toISOString() ?? null },
            after: { passwordChangedAt: changedAt.toISOString() },
          },
        );
        if (methods) {
          const challenge = await createChallenge(tx, {
            purpose: 'sign-in',
            accountId: account.id,
            role: account.role,
          });
          return { data: { secondFactor: { challenge, methods } } };
        }
        return startSession(tx, request, account, options);
      });
      // A user locked out by failed sign-ins who proved access to the mailbox is let back in.
      await clearAccountFailures(db, account.email);
      if (!methods)
        issueDeviceEntry(request, reply, options.deviceKey, account, { rememberSecondFactor: false });
      request.log.info({ accountId: account.id }, 'password reset');
      return answer;
    },
  );

  app.get(
    '/get-admins',
    {
      config: { access: ['admins', 'list'] },
      schema: {
        tags: ['passwords'],
        summary: 'The emails of the admins who can sign in (the admin reset dropdown)',
        response: { 200: adminEmailsResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: await findAdminEmails(db) }),
  );

  app.post(
    '/admin/update-password',
    {
      config: { access: ['passwords', 'update'] },
      schema: {
        tags: ['passwords'],
        summary: "Set an account's password; its other sessions end",
        body: updatePasswordBodySchema,
        response: {
          200: messageResponseSchema,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const caller = currentUser(request);
      const { email, newPassword } = request.body;
      const problem = passwordProblem('newPassword', newPassword);
      if (problem) throw problem;
      const account = await findAccountByEmail(db, email);
      if (!account || account.deletedAt) throw new AppError('NOT_FOUND', m.noAccountWithEmail());

      const passwordHash = await hashPassword(newPassword);
      await db.transaction(async (tx) => {
        const changedAt = await setPasswordHash(tx, account.id, passwordHash);
        // Admins who change their own password stay signed in here; every other token ends.
        await revokeAccountSessions(tx, account.id, {
          except: account.id === caller.id ? caller.sessionId : undefined,
        });
        await voidResetTokens(tx, account.id);
        await recordAudit(
          tx,
          { id: caller.id, requestId: request.id },
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
      return { data: { message: m.passwordUpdated({ email: account.email }) } };
    },
  );
};
