import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

/** A Firebase project's password hash parameters, as its console shows them (base64 and numbers). */
export type FirebaseHashParams = {
  signerKey: string;
  saltSeparator: string;
  rounds: number;
  memCost: number;
};

// Firebase's mem_cost 14 and rounds 8 need 16 MiB; the limit allows the documented maximum.
const SCRYPT_MAXMEM = 64 * 1024 * 1024;

function deriveKey(password: string, salt: Buffer, params: FirebaseHashParams): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** params.memCost, r: params.rounds, p: 1, maxmem: SCRYPT_MAXMEM };
  const separator = Buffer.from(params.saltSeparator, 'base64');
  // Only the first 32 of the 64 bytes Firebase derives are the AES key: deriving 32 gives the same.
  return new Promise((resolve, reject) => {
    scrypt(password, Buffer.concat([salt, separator]), 32, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/** Firebase's SCRYPT variant: the signer key encrypted with AES-256-CTR under the derived key. */
export async function firebaseScryptHash(
  password: string,
  saltBase64: string,
  params: FirebaseHashParams,
): Promise<Buffer> {
  const key = await deriveKey(password, Buffer.from(saltBase64, 'base64'), params);
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(params.signerKey, 'base64')), cipher.final()]);
}

/**
 * Derives a key as verifying an imported password would, with that cost, and throws it away: what a
 * sign-in does for accounts without an imported hash, so that imported staff take no longer to
 * refuse than anyone else.
 */
export async function spendFirebaseHashTime(password: string, cost: { rounds: number; memCost: number }) {
  const params = { signerKey: '', saltSeparator: 'Bw==', rounds: cost.rounds, memCost: cost.memCost };
  await deriveKey(password, DUMMY_SALT, params).catch(() => undefined);
}
const DUMMY_SALT = randomBytes(16);

/** Whether a password matches a hash exported by Firebase Authentication (base64 hash and salt). */
export async function verifyFirebasePassword(
  password: string,
  stored: { hash: string; salt: string },
  params: FirebaseHashParams,
): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  let actual: Buffer;
  try {
    actual = await firebaseScryptHash(password, stored.salt, params);
  } catch {
    return false; // parameters scrypt refuses (a damaged export) verify nothing
  }
  return expected.length === actual.length && expected.length > 0 && timingSafeEqual(expected, actual);
}

/** Same parameters, same fingerprint: a second import finds the row it stored the first time. */
export function fingerprintHashParams(params: FirebaseHashParams): string {
  return createHash('sha256')
    .update(JSON.stringify([params.signerKey, params.saltSeparator, params.rounds, params.memCost]))
    .digest('base64url');
}

// The sealing key is derived from JWT_SECRET, never the secret itself: a key for one purpose only.
function sealingKey(jwtSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', jwtSecret, 'bmet', 'firebase-hash-params', 32));
}

/** The signer key and salt separator encrypted (AES-256-GCM): base64 of iv, tag and ciphertext. */
export function sealHashSecrets(params: FirebaseHashParams, jwtSecret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(jwtSecret), iv);
  const plain = JSON.stringify({ signerKey: params.signerKey, saltSeparator: params.saltSeparator });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

/** The sealed secrets back, or null when they were sealed under another JWT_SECRET (or damaged). */
export function openHashSecrets(
  sealed: string,
  jwtSecret: string,
): Pick<FirebaseHashParams, 'signerKey' | 'saltSeparator'> | null {
  try {
    const bytes = Buffer.from(sealed, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', sealingKey(jwtSecret), bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
    const value = JSON.parse(plain) as { signerKey?: unknown; saltSeparator?: unknown };
    if (typeof value.signerKey !== 'string' || typeof value.saltSeparator !== 'string') return null;
    return { signerKey: value.signerKey, saltSeparator: value.saltSeparator };
  } catch {
    return null;
  }
}
