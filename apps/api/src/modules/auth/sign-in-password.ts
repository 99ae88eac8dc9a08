import type { Db } from '../../db/client';
import type { accounts } from '../../db/schema';
import { openHashSecrets, spendFirebaseHashTime, verifyFirebasePassword } from './firebase-password';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password';
import { findCostliestFirebaseHashCost, findFirebaseHashParams, replaceFirebasePassword } from './repository';

type Account = typeof accounts.$inferSelect;

type HashCost = { rounds: number; memCost: number };
/** The imported projects' scrypt cost (null: nothing imported), read again a minute after the last read. */
let importedHashCost: { cost: Promise<HashCost | null>; until: number } | undefined;

function readImportedHashCost(db: Db): Promise<HashCost | null> {
  if (!importedHashCost || importedHashCost.until < Date.now()) {
    const cost = findCostliestFirebaseHashCost(db).catch(() => null);
    importedHashCost = { cost, until: Date.now() + 60_000 };
  }
  return importedHashCost.cost;
}

/**
 * Checks a sign-in password (or none, for an email without an account) so that every outcome costs
 * the same work: one argon2id verification, and one scrypt derivation at the imported projects'
 * cost when staff were imported. Imported staff who had not signed in yet took 38-60 ms to refuse
 * against 15-17 ms for anyone else, which told their emails apart.
 */
export async function checkSignInPassword(
  db: Db,
  account: Account | null,
  password: string,
  jwtSecret: string,
): Promise<boolean> {
  const cost = await readImportedHashCost(db);
  const imported =
    account?.firebasePasswordHash && account.firebasePasswordSalt && account.firebaseHashParamsId;
  if (!account || !imported) {
    if (cost) await spendFirebaseHashTime(password, cost);
    return account ? checkArgon2(account, password) : (await verifyAgainstDummy(password), false);
  }
  await verifyAgainstDummy(password);
  return checkImported(db, account, password, jwtSecret);
}

async function checkArgon2(account: Account, password: string): Promise<boolean> {
  if (!account.passwordHash.startsWith('$argon2')) {
    await verifyAgainstDummy(password);
    return false;
  }
  return verifyPassword(account.passwordHash, password);
}

/**
 * A Firebase SCRYPT hash brought by the import, which a right password replaces with argon2id at
 * once. An account whose project's parameters cannot be opened takes as long to refuse.
 */
async function checkImported(
  db: Db,
  account: Account,
  password: string,
  jwtSecret: string,
): Promise<boolean> {
  const { firebasePasswordHash, firebasePasswordSalt, firebaseHashParamsId } = account;
  const row = await findFirebaseHashParams(db, firebaseHashParamsId!);
  const secrets = row ? openHashSecrets(row.sealed, jwtSecret) : null;
  if (!row || !secrets) {
    // Sealed under another JWT_SECRET: only a password reset helps (see the import's decision record).
    const cost = await readImportedHashCost(db);
    if (cost) await spendFirebaseHashTime(password, cost);
    return false;
  }
  const params = { ...secrets, rounds: row.rounds, memCost: row.memCost };
  const stored = { hash: firebasePasswordHash!, salt: firebasePasswordSalt! };
  if (!(await verifyFirebasePassword(password, stored, params))) return false;
  await replaceFirebasePassword(
    db,
    { id: account.id, firebasePasswordHash: firebasePasswordHash! },
    await hashPassword(password),
  );
  return true;
}
