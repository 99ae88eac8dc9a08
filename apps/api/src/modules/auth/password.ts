import { hash, verify } from '@node-rs/argon2';
import { dictionary } from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const ARGON2 = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

let commonPasswords: Set<string> | null = null;
function isCommon(password: string): boolean {
  commonPasswords ??= new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase()));
  return commonPasswords.has(password.toLowerCase());
}

/** Answers the message that says what is wrong with a new password, or null when it is fine. */
export function checkPasswordPolicy(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return m.passwordTooShort({ min: PASSWORD_MIN_LENGTH });
  if (password.length > PASSWORD_MAX_LENGTH) return m.passwordTooLong({ max: PASSWORD_MAX_LENGTH });
  if (isCommon(password)) return m.passwordTooCommon();
  return null;
}

/** The policy's refusal of a new password as a 400 naming its field, or null when it is fine. */
export function passwordProblem(field: string, password: string): AppError | null {
  const problem = checkPasswordPolicy(password);
  return problem ? new AppError('VALIDATION', problem, { fieldErrors: { [field]: [problem] } }) : null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the email is unknown, so both failures take the same time.
let dummyHash: Promise<string> | null = null;
export async function verifyAgainstDummy(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-account-password');
  await verifyPassword(await dummyHash, password);
}
