import { webcrypto } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Role } from '@bmet/shared/constants';
import { ROLES } from '@bmet/shared/constants';

export type IdTokenClaims = { sub: string; sid: string; role: Role; exp: number };

const ISSUER = 'book-my-etaxi';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: unknown): value is string => typeof value === 'string' && UUID.test(value);
const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
/**
 * The HMAC key of a secret, imported once: given the secret's bytes, jose imports them anew for
 * every token it signs or verifies (1.2% of the server's CPU under a list's load).
 */
const key = (secret: string): Promise<webcrypto.CryptoKey> => {
  let imported = keys.get(secret);
  if (!imported) {
    imported = webcrypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
    keys.set(secret, imported);
  }
  return imported;
};

/**
 * Signs an ID token whose claims carry the role as a true boolean claim ({"admin": true}),
 * as the sign-in rule of the spec expects, plus the session it belongs to.
 */
export async function signIdToken(
  input: { accountId: string; sessionId: string; role: Role; email: string; name: string | null },
  secret: string,
  expiresAt: Date,
): Promise<string> {
  return new SignJWT({ [input.role]: true, sid: input.sessionId, email: input.email, name: input.name })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(input.accountId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await key(secret));
}

/**
 * Tokens whose signature and issuer were verified, with their claims, per secret. A staff member's
 * browser sends one token with every request for as long as it lives, and checking its signature
 * through WebCrypto (the only way jose has) was a sixth of the server's CPU under a list's load: a
 * job handed to the thread pool and back for each request. A token is found here only by its whole
 * text, so only a token already verified with this secret is; its expiry is checked at each use.
 * The memory is bounded by the tokens' length, not only their number.
 */
const verified = new Map<string, LRUCache<string, IdTokenClaims>>();
const VERIFIED_TOKENS = 10_000;
const VERIFIED_CHARACTERS = 8_000_000;

function verifiedWith(secret: string): LRUCache<string, IdTokenClaims> {
  let tokens = verified.get(secret);
  if (!tokens) {
    tokens = new LRUCache({
      max: VERIFIED_TOKENS,
      maxSize: VERIFIED_CHARACTERS,
      sizeCalculation: (_claims, token) => token.length + 100,
    });
    verified.set(secret, tokens);
  }
  return tokens;
}

/**
 * A token as this server writes one: three base64url parts without padding, the last the 32 bytes
 * of an HS256 signature, and no longer than a token's claims can make it. jose's decoding would
 * also take a signature written with spaces or tabs inside, which would let one token be sent
 * under endless different texts, each remembered apart.
 */
const ISSUED_FORM = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/;
const LONGEST_TOKEN = 4_096;

/** As jose judges it: a token is good until the second of its expiry. */
const unexpired = (claims: IdTokenClaims) => claims.exp > Math.floor(Date.now() / 1000);

/** Verifies signature, issuer and expiry; answers null for any token that is not good. */
export async function verifyIdToken(token: string, secret: string): Promise<IdTokenClaims | null> {
  if (token.length > LONGEST_TOKEN || !ISSUED_FORM.test(token)) return null;
  const tokens = verifiedWith(secret);
  const known = tokens.get(token);
  if (known) {
    if (unexpired(known)) return known;
    tokens.delete(token);
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, await key(secret), {
      issuer: ISSUER,
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
    });
    const role = ROLES.find((r) => payload[r] === true);
    if (!role || !isUuid(payload.sub) || !isUuid(payload.sid)) return null;
    const claims: IdTokenClaims = Object.freeze({
      sub: payload.sub,
      sid: payload.sid,
      role,
      exp: payload.exp!,
    });
    tokens.set(token, claims);
    return claims;
  } catch {
    return null;
  }
}
