import { createHash, randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { Language } from '@bmet/shared/constants';
import { signInResponseSchema } from '@bmet/shared/schemas/auth';
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
import { checkPasswordPolicy, hashPassword } from './password';
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

export type MailSettings = { smtpUrl: string | undefined; from: string; appUrl: string };

export type PasswordRoutesOptions = {
  db: Db;
  jwtSecret: string;
  tokenTtlHours: number;
  mail?: MailSettings;
  sessionsPerAccount?: number;
};

/** How long a reset link works. */
export const RESET_LINK_TTL_MS = 30 * 60_000;
// Reset requests are counted with the sign-in attempt counters (in the database, so the limits
// hold across instances), under keys of their own. Known and unknown emails count alike.
const RESET_PER_EMAIL: ThrottleRule = { maxFailures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };
const RESET_PER_ADDRESS: ThrottleRule = { maxFailures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 };

/** 32 random bytes in base64url: what a reset link carries. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Only this hash of a reset token is stored. */
export function hashResetToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const invalidLink = () => new AppError('VALIDATION', m.resetLinkInvalid());

function passwordProblem(field: string, password: string): AppError | null {
  const problem = checkPasswordPolicy(password);
  return problem ? new AppError('VALIDATION', problem, { fieldErrors: { [field]: [problem] } }) : null;
}

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

  async function throttleResetRequests(email: string, ip: string) {
    const keys = [
      [`reset-email:${email}`, RESET_PER_EMAIL],
      [`reset-ip:${ip}`, RESET_PER_ADDRESS],
    ] as const;
    // Counted before anything is sent, so a burst of requests cannot slip past the limit.
    for (const [key, rule] of keys) {
      const { lockedUntil } = await takeAttempt(db, key, rule);
      if (lockedUntil) {
        const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - Date.now()) / 1000));
        throw new AppError('RATE_LIMITED', m.tooManyResetRequests({ minutes: Math.ceil(seconds / 60) }), {
          headers: { 'retry-after': String(seconds) },
        });
      }
    }
  }

  app.post(
    '/auth/password-reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Mail a password reset link; answers the same whether or not the email is known',
        description:
          'Limited to 5 requests per email and 20 per client address in 15 minutes (then 429). The link works once, for 30 minutes.',
        body: passwordResetRequestBodySchema,
        response: { 202: messageResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const { email } = request.body;
      await throttleResetRequests(email, request.ip);
      const account = await findAccountByEmail(db, email);
      if (account && !account.disabled && !account.deletedAt) {
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
        summary: "Set a new password with a reset link's token; ends every session and signs in fresh",
        body: passwordResetConfirmBodySchema,
        response: { 200: signInResponseSchema, ...errorResponses(400) },
      },
    },
    async (request) => {
      const { token, password } = request.body;
      if (!TOKEN_FORMAT.test(token)) throw invalidLink();
      const found = await findUsableResetToken(db, hashResetToken(token));
      if (!found) throw invalidLink();
      const problem = passwordProblem('password', password);
      if (problem) throw problem;

      const { account } = found;
      const passwordHash = await hashPassword(password);
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
        return startSession(tx, request, account, options);
      });
      // A user locked out by failed sign-ins who proved access to the mailbox is let back in.
      await clearAccountFailures(db, account.email);
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
