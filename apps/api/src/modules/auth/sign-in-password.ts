import type { Db } from '../../db/client';
import type { accounts } from '../../db/schema';
import { openHashSecrets, verifyFirebasePassword } from './firebase-password';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import { findFirebaseHashParams, replaceFirebasePassword } from './repository';

type Account = typeof accounts.$inferSelect;

/**
 * Checks a sign-in password against whichever hash the account has: argon2id, or a Firebase SCRYPT
 * hash brought by the import, which a right password replaces with argon2id at once. An account
 * without a usable password (imported staff with no Authentication record) takes as long to
 * refuse as a wrong password.
 */
export async function checkSignInPassword(
  db: Db,
  account: Account,
  password: string,
  jwtSecret: string,
): Promise<boolean> {
  const { firebasePasswordHash, firebasePasswordSalt, firebaseHashParamsId } = account;
  if (firebasePasswordHash && firebasePasswordSalt && firebaseHashParamsId) {
    const row = await findFirebaseHashParams(db, firebaseHashParamsId);
    const secrets = row ? openHashSecrets(row.sealed, jwtSecret) : null;
    if (!row || !secrets) {
      // Sealed under another JWT_SECRET: only a password reset helps (see the import's decision record).
      await verifyAgainstDummy(password);
      return false;
    }
    const params = { ...secrets, rounds: row.rounds, memCost: row.memCost };
    const stored = { hash: firebasePasswordHash, salt: firebasePasswordSalt };
    if (!(await verifyFirebasePassword(password, stored, params))) return false;
    await replaceFirebasePassword(db, { id: account.id, firebasePasswordHash }, await hashPassword(password));
    return true;
  }
  if (!account.passwordHash.startsWith('$argon2')) {
    await verifyAgainstDummy(password);
    return false;
  }
  return verifyPassword(account.passwordHash, password);
}
