import type { FastifyRequest } from 'fastify';
import { and, asc, eq } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeySummary } from '@bmet/shared/schemas/second-factor';
import type { Db } from '../../db/client';
import { passkeys } from '../../db/schema';

/**
 * Passkeys (WebAuthn) through @simplewebauthn/server. They belong to the console's host name: the
 * one of APP_URL (localhost without it). Outside production, any port of localhost is accepted
 * too, for the development server and the tests.
 */
export type WebauthnSettings = { rpId: string; rpName: string; origins: string[]; allowLocalhost: boolean };

export function webauthnSettings(appUrl: string, env: string | undefined): WebauthnSettings {
  const url = new URL(appUrl);
  return {
    rpId: url.hostname,
    rpName: 'Book-My-ETaxi',
    origins: [url.origin],
    allowLocalhost: env !== 'production' && url.hostname === 'localhost',
  };
}

/** The origins a response from this request may carry. */
function expectedOrigins(settings: WebauthnSettings, request: FastifyRequest): string[] {
  const origin = request.headers.origin;
  if (
    settings.allowLocalhost &&
    typeof origin === 'string' &&
    /^https?:\/\/localhost(:\d{1,5})?$/.test(origin)
  ) {
    return [...settings.origins, origin];
  }
  return settings.origins;
}

type PasskeyRow = typeof passkeys.$inferSelect;

const transportsOf = (row: PasskeyRow) => row.transports as AuthenticatorTransport[];

export async function accountPasskeys(db: Db, accountId: string): Promise<PasskeyRow[]> {
  return db.select().from(passkeys).where(eq(passkeys.accountId, accountId)).orderBy(asc(passkeys.createdAt));
}

export const passkeySummary = (row: PasskeyRow): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export async function registrationOptions(
  db: Db,
  settings: WebauthnSettings,
  account: { id: string; email: string; displayName: string | null },
) {
  const existing = await accountPasskeys(db, account.id);
  return generateRegistrationOptions({
    rpName: settings.rpName,
    rpID: settings.rpId,
    userName: account.email,
    userDisplayName: account.displayName ?? account.email,
    userID: new TextEncoder().encode(account.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    // A passkey kept on the authenticator, so that it can also sign in without a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
}

/** Checks a new passkey's attestation and keeps it; false when it does not check out. */
export async function registerPasskey(
  db: Db,
  settings: WebauthnSettings,
  request: FastifyRequest,
  input: { accountId: string; expectedChallenge: string; response: RegistrationResponseJSON; name: string },
): Promise<PasskeyRow | null> {
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: expectedOrigins(settings, request),
      expectedRPID: settings.rpId,
      requireUserVerification: false,
    });
  } catch (error) {
    request.log.info({ err: error }, 'passkey registration refused');
    return null;
  }
  if (!verification.verified) return null;
  const { credential } = verification.registrationInfo;
  const [row] = await db
    .insert(passkeys)
    .values({
      id: credential.id,
      accountId: input.accountId,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function authenticationOptions(
  settings: WebauthnSettings,
  allow: PasskeyRow[] | null,
  userVerification: 'required' | 'preferred',
) {
  return generateAuthenticationOptions({
    rpID: settings.rpId,
    userVerification,
    ...(allow
      ? { allowCredentials: allow.map((row) => ({ id: row.id, transports: transportsOf(row) })) }
      : {}),
  });
}

/** The passkey a response names, if any (for a sign-in by passkey alone, whose account is unknown until then). */
export async function findPasskey(db: Db, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(passkeys).where(eq(passkeys.id, credentialId));
  return row ?? null;
}

/**
 * Checks an assertion against a passkey of the account (the one it names); keeps its new counter.
 * False when it does not check out.
 */
export async function checkPasskey(
  db: Db,
  settings: WebauthnSettings,
  request: FastifyRequest,
  input: {
    accountId: string;
    expectedChallenge: string;
    response: AuthenticationResponseJSON;
    requireUserVerification: boolean;
  },
): Promise<boolean> {
  const [row] = await db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.id, input.response.id), eq(passkeys.accountId, input.accountId)));
  if (!row) return false;
  // A passkey made for this account answers with its id as the user handle.
  const handle = input.response.response.userHandle;
  if (handle && Buffer.from(handle, 'base64url').toString('utf8') !== input.accountId) return false;
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: input.expectedChallenge,
      expectedOrigin: expectedOrigins(settings, request),
      expectedRPID: settings.rpId,
      credential: {
        id: row.id,
        publicKey: new Uint8Array(Buffer.from(row.publicKey, 'base64url')),
        counter: row.counter,
        transports: transportsOf(row),
      },
      requireUserVerification: input.requireUserVerification,
    });
  } catch (error) {
    request.log.info({ err: error }, 'passkey assertion refused');
    return false;
  }
  if (!verification.verified) return false;
  await db
    .update(passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(passkeys.id, row.id));
  return true;
}

export async function removePasskey(db: Db, accountId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(passkeys)
    .where(and(eq(passkeys.id, id), eq(passkeys.accountId, accountId)))
    .returning({ id: passkeys.id });
  return gone.length > 0;
}
