import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify as verifyTotp } from 'otplib';
import type { Role } from '@bmet/shared/constants';
import type { SecondFactorMethod } from '@bmet/shared/schemas/second-factor';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, passkeys, recoveryCodes, secondFactorChallenges, totpSecrets } from '../../db/schema';
import { recordAudit } from '../../infra/audit';
import { revokeAccountSessions } from './repository';

/**
 * The second factor of staff accounts: an authenticator app (TOTP), passkeys (passkeys.ts) and ten
 * single-use recovery codes, and the challenges that carry a sign-in from its password to its
 * second step. Challenges, codes and secrets are kept only as hashes or encrypted.
 */

/** How long a sign-in waits for its second step (or an enrolment for its first code). */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Wrong codes one challenge takes before it ends (the throttle's counters apply besides). */
export const CHALLENGE_MAX_FAILURES = 5;
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const TOTP_ISSUER = 'Book-My-ETaxi';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// ---- TOTP secrets, encrypted at rest with a key derived from the token secret ----

function secretKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('bmet totp secret v1').digest();
}

function seal(jwtSecret: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', secretKey(jwtSecret), iv);
  const sealed = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The secret, or null when it cannot be opened (the token secret changed since). */
function unseal(jwtSecret: string, text: string | null): string | null {
  if (!text) return null;
  const [iv, tag, sealed] = text.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !sealed) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', secretKey(jwtSecret), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** Starts (or starts again) setting up an authenticator app: a new secret waits for its first code. */
export async function startTotpEnrolment(
  db: Db,
  jwtSecret: string,
  account: { id: string; email: string },
): Promise<{ secret: string; uri: string }> {
  const secret = generateSecret();
  const pendingSecret = seal(jwtSecret, secret);
  await db
    .insert(totpSecrets)
    .values({ accountId: account.id, pendingSecret })
    .onConflictDoUpdate({ target: totpSecrets.accountId, set: { pendingSecret } });
  return { secret, uri: generateURI({ issuer: TOTP_ISSUER, label: account.email, secret }) };
}

/**
 * Checks a code against a secret and takes its time step, so that a code is accepted once: of two
 * uses of one code (or an older one), only the first gets in.
 */
async function takeTotpCode(
  db: DbExecutor,
  accountId: string,
  secret: string,
  code: string,
  lastTimeStep: number,
): Promise<number | null> {
  const result = await verifyTotp({ secret, token: code, epochTolerance: 30, afterTimeStep: lastTimeStep });
  // A TOTP verification names the time step it matched (an HOTP one would not).
  if (!result.valid || !('timeStep' in result)) return null;
  const taken = await db
    .update(totpSecrets)
    .set({ lastTimeStep: result.timeStep })
    .where(and(eq(totpSecrets.accountId, accountId), lt(totpSecrets.lastTimeStep, result.timeStep)))
    .returning({ accountId: totpSecrets.accountId });
  return taken.length > 0 ? result.timeStep : null;
}

/**
 * Checks a code against the account's confirmed secret, or the one being set up; answers whether
 * it was right (and not used before).
 */
async function checkCode(
  db: Db,
  jwtSecret: string,
  accountId: string,
  code: string,
  which: 'secret' | 'pendingSecret',
): Promise<{ sealed: string } | null> {
  const [row] = await db.select().from(totpSecrets).where(eq(totpSecrets.accountId, accountId));
  const sealed = row?.[which] ?? null;
  const secret = unseal(jwtSecret, sealed);
  if (!row || !sealed || !secret) return null;
  const step = await takeTotpCode(db, accountId, secret, code, row.lastTimeStep);
  return step === null ? null : { sealed };
}

/** Confirms the secret being set up with its first code; false when the code is not right. */
export async function confirmTotp(
  db: Db,
  jwtSecret: string,
  accountId: string,
  code: string,
): Promise<boolean> {
  const right = await checkCode(db, jwtSecret, accountId, code, 'pendingSecret');
  if (!right) return false;
  await db
    .update(totpSecrets)
    .set({ secret: right.sealed, pendingSecret: null, confirmedAt: new Date() })
    .where(eq(totpSecrets.accountId, accountId));
  return true;
}

/** Whether a code of the account's confirmed authenticator app is right (and not used before). */
export async function checkTotp(
  db: Db,
  jwtSecret: string,
  accountId: string,
  code: string,
): Promise<boolean> {
  return (await checkCode(db, jwtSecret, accountId, code, 'secret')) !== null;
}

export async function removeTotp(db: Db, accountId: string): Promise<void> {
  await db.delete(totpSecrets).where(eq(totpSecrets.accountId, accountId));
}

// ---- Recovery codes ----

function newRecoveryCode(): string {
  return Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]).join('');
}

/** Replaces the account's recovery codes with ten new ones, answered once, as printed (xxxxx-xxxxx). */
export async function issueRecoveryCodes(db: DbExecutor, accountId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
  await db.insert(recoveryCodes).values(codes.map((code) => ({ accountId, codeHash: sha256(code) })));
  return codes.map((code) => `${code.slice(0, 5)}-${code.slice(5)}`);
}

/** Uses a recovery code (already normalised: 10 lowercase letters and digits); false if not one left. */
export async function useRecoveryCode(db: Db, accountId: string, code: string): Promise<boolean> {
  const used = await db
    .update(recoveryCodes)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(recoveryCodes.accountId, accountId),
        eq(recoveryCodes.codeHash, sha256(code)),
        isNull(recoveryCodes.usedAt),
      ),
    )
    .returning({ accountId: recoveryCodes.accountId });
  return used.length > 0;
}

// ---- What an account has ----

export type SecondFactorState = { totp: boolean; passkeys: number; recoveryCodesLeft: number };

export async function secondFactorState(db: Db, accountId: string): Promise<SecondFactorState> {
  const [row] = await db
    .select({
      totp: sql<boolean>`exists (select 1 from ${totpSecrets} where ${totpSecrets.accountId} = ${accountId} and ${totpSecrets.secret} is not null)`,
      passkeys: sql<number>`(select count(*)::int from ${passkeys} where ${passkeys.accountId} = ${accountId})`,
      recoveryCodesLeft: sql<number>`(select count(*)::int from ${recoveryCodes} where ${recoveryCodes.accountId} = ${accountId} and ${recoveryCodes.usedAt} is null)`,
    })
    .from(sql`(select 1) as one`);
  return {
    totp: Boolean(row?.totp),
    passkeys: Number(row?.passkeys ?? 0),
    recoveryCodesLeft: Number(row?.recoveryCodesLeft ?? 0),
  };
}

export const isEnrolled = (state: SecondFactorState) => state.totp || state.passkeys > 0;

/**
 * The methods of the second step for an account whose password was right, or null when it has
 * none: `enrol` when its role requires one it has not set up.
 */
export function secondStepMethods(
  state: SecondFactorState,
  role: Role,
  required: readonly Role[],
): SecondFactorMethod[] | null {
  if (!isEnrolled(state)) return required.includes(role) ? ['enrol'] : null;
  const methods: SecondFactorMethod[] = [];
  if (state.totp) methods.push('totp');
  if (state.passkeys > 0) methods.push('passkey');
  if (state.recoveryCodesLeft > 0) methods.push('recovery');
  return methods;
}

/**
 * Removes every second factor of an account (an admin's reset, or the operator's command): it sets
 * up a new one at its next sign-in if its role requires one. Browsers that remembered the old one
 * are asked again.
 */
export async function clearSecondFactor(db: DbExecutor, accountId: string): Promise<SecondFactorState> {
  const removed = {
    totp: (await db.delete(totpSecrets).where(eq(totpSecrets.accountId, accountId)).returning()).length > 0,
    passkeys: (await db.delete(passkeys).where(eq(passkeys.accountId, accountId)).returning()).length,
    recoveryCodesLeft: (
      await db
        .delete(recoveryCodes)
        .where(and(eq(recoveryCodes.accountId, accountId), isNull(recoveryCodes.usedAt)))
        .returning()
    ).length,
  };
  await db.delete(recoveryCodes).where(eq(recoveryCodes.accountId, accountId));
  await db.delete(secondFactorChallenges).where(eq(secondFactorChallenges.accountId, accountId));
  await forgetRememberedBrowsers(db, accountId);
  return removed;
}

/**
 * The operator's way back in for an admin who lost their second factor (`npm run create-admin --
 * --clear-second-factor`): clears it, ends the admin's sessions, and records it in the audit trail.
 */
export async function clearAdminSecondFactor(
  db: Db,
  email: string,
): Promise<'cleared' | 'none' | 'not-admin' | 'unknown'> {
  const [account] = await db
    .select({ id: accounts.id, role: accounts.role })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email}) and ${accounts.deletedAt} is null`);
  if (!account) return 'unknown';
  if (account.role !== 'admin') return 'not-admin';
  if (!isEnrolled(await secondFactorState(db, account.id))) return 'none';
  await db.transaction(async (tx) => {
    const removed = await clearSecondFactor(tx, account.id);
    await revokeAccountSessions(tx, account.id);
    await recordAudit(
      tx,
      { id: account.id, requestId: 'create-admin --clear-second-factor' },
      { action: 'reset', resource: 'second-factor', resourceId: account.id, before: removed, after: null },
    );
  });
  return 'cleared';
}

/** Raises the account's second-factor version: no browser skips the second step on an old one. */
export async function forgetRememberedBrowsers(db: DbExecutor, accountId: string): Promise<void> {
  await db
    .update(accounts)
    .set({ secondFactorVersion: sql`${accounts.secondFactorVersion} + 1` })
    .where(eq(accounts.id, accountId));
}

// ---- Challenges ----

export type ChallengePurpose = 'sign-in' | 'passkey-sign-in' | 'passkey-enrol';
export type Challenge = typeof secondFactorChallenges.$inferSelect;

export async function createChallenge(
  db: DbExecutor,
  input: { purpose: ChallengePurpose; accountId: string | null; role?: Role | null },
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(secondFactorChallenges).values({
    tokenHash: sha256(token),
    accountId: input.accountId,
    purpose: input.purpose,
    role: input.role ?? null,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
  return token;
}

/** A live challenge of a purpose, or null (unknown, used, expired, or worn out by wrong codes). */
export async function findChallenge(
  db: Db,
  token: string,
  purpose: ChallengePurpose,
): Promise<Challenge | null> {
  const [row] = await db
    .select()
    .from(secondFactorChallenges)
    .where(
      and(
        eq(secondFactorChallenges.tokenHash, sha256(token)),
        eq(secondFactorChallenges.purpose, purpose),
        gt(secondFactorChallenges.expiresAt, new Date()),
      ),
    );
  return row ?? null;
}

export async function setWebauthnChallenge(db: Db, token: string, webauthnChallenge: string): Promise<void> {
  await db
    .update(secondFactorChallenges)
    .set({ webauthnChallenge })
    .where(eq(secondFactorChallenges.tokenHash, sha256(token)));
}

/** Ends a challenge; false when another request ended it first (of two uses, one gets in). */
export async function endChallenge(db: DbExecutor, token: string): Promise<boolean> {
  const gone = await db
    .delete(secondFactorChallenges)
    .where(eq(secondFactorChallenges.tokenHash, sha256(token)))
    .returning({ tokenHash: secondFactorChallenges.tokenHash });
  return gone.length > 0;
}

/** Counts a wrong code against a challenge; the fifth ends it (the user signs in again). */
export async function countChallengeFailure(db: Db, token: string): Promise<void> {
  const [row] = await db
    .update(secondFactorChallenges)
    .set({ failures: sql`${secondFactorChallenges.failures} + 1` })
    .where(eq(secondFactorChallenges.tokenHash, sha256(token)))
    .returning({ failures: secondFactorChallenges.failures });
  if (row && row.failures >= CHALLENGE_MAX_FAILURES) await endChallenge(db, token);
}
