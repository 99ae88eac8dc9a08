import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The device cookie (OWASP's "device cookies" against lockout attacks): a browser where an account
 * signed in gets a signed entry naming that account. The sign-in throttle trusts the browser, not
 * the address: failures made with an entry count against that entry alone, so guesses by others
 * (behind the same office or carrier address, or anywhere) never lock its owner out. An entry may
 * also remember that the browser passed the second factor, for 30 days.
 *
 * One cookie holds the entries of the last few accounts signed in on the browser. It is httpOnly,
 * SameSite=Strict and sent only to /api/auth; it grants nothing but this trust, so a stolen one
 * opens no session.
 */
export const DEVICE_COOKIE = 'bmet_device';
/** How long a browser stays known after its last sign-in. */
export const DEVICE_COOKIE_DAYS = 180;
/** How long a browser is spared the second step after one, when the user asks. */
export const REMEMBER_SECOND_FACTOR_DAYS = 30;
const MAX_ENTRIES = 5;
const DAY_SECONDS = 86_400;

export type DeviceEntry = {
  accountId: string;
  /** Names this browser's entry in the throttle's counters. */
  nonce: string;
  issuedAt: number;
  /** Until when (seconds since the epoch) the second step is not asked here; 0 when not remembered. */
  secondFactorUntil: number;
  /** The account's second-factor version when it was remembered (a reset forgets it). */
  secondFactorVersion: number;
};

const ENTRY =
  /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.(\d{1,12})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/;

export function deviceCookieKey(jwtSecret: string): Buffer {
  return createHmac('sha256', jwtSecret).update('bmet device cookie v1').digest();
}

function sign(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

function encode(key: Buffer, entry: DeviceEntry): string {
  const payload = [
    entry.accountId,
    entry.nonce,
    entry.issuedAt,
    entry.secondFactorUntil,
    entry.secondFactorVersion,
  ].join('.');
  return `${payload}.${sign(key, payload)}`;
}

function decode(key: Buffer, text: string, nowSeconds: number): DeviceEntry | null {
  const match = ENTRY.exec(text);
  if (!match) return null;
  const [, accountId, nonce, issuedAt, until, version, signature] = match as unknown as string[];
  const payload = text.slice(0, text.lastIndexOf('.'));
  const expected = Buffer.from(sign(key, payload));
  const given = Buffer.from(signature!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const entry: DeviceEntry = {
    accountId: accountId!,
    nonce: nonce!,
    issuedAt: Number(issuedAt),
    secondFactorUntil: Number(until),
    secondFactorVersion: Number(version),
  };
  if (entry.issuedAt > nowSeconds + 60 || entry.issuedAt < nowSeconds - DEVICE_COOKIE_DAYS * DAY_SECONDS) {
    return null;
  }
  return entry;
}

/** The valid entries of the request's device cookie (forged, altered and old ones are left out). */
export function readDeviceEntries(request: FastifyRequest, key: Buffer): DeviceEntry[] {
  const value = request.cookies[DEVICE_COOKIE];
  if (!value || value.length > 4096) return [];
  const now = Math.floor(Date.now() / 1000);
  return value
    .split('~')
    .slice(0, MAX_ENTRIES)
    .map((text) => decode(key, text, now))
    .filter((entry): entry is DeviceEntry => entry !== null);
}

export function deviceEntryOf(entries: DeviceEntry[], accountId: string | undefined): DeviceEntry | null {
  return (accountId && entries.find((entry) => entry.accountId === accountId)) || null;
}

/** Whether this browser passed the account's current second factor within the last 30 days. */
export function remembersSecondFactor(entry: DeviceEntry | null, secondFactorVersion: number): boolean {
  return (
    entry !== null &&
    entry.secondFactorVersion === secondFactorVersion &&
    entry.secondFactorUntil > Date.now() / 1000
  );
}

/**
 * Gives the browser a fresh entry for an account that just signed in (a new nonce: its own count
 * starts afresh), keeping the entries of the other accounts signed in there.
 */
export function issueDeviceEntry(
  request: FastifyRequest,
  reply: FastifyReply,
  key: Buffer,
  account: { id: string; secondFactorVersion: number },
  options: { rememberSecondFactor: boolean },
): void {
  const now = Math.floor(Date.now() / 1000);
  const entries = readDeviceEntries(request, key);
  const previous = deviceEntryOf(entries, account.id);
  const keptUntil =
    previous && remembersSecondFactor(previous, account.secondFactorVersion) ? previous.secondFactorUntil : 0;
  const entry: DeviceEntry = {
    accountId: account.id,
    nonce: randomBytes(16).toString('base64url'),
    issuedAt: now,
    secondFactorUntil: options.rememberSecondFactor
      ? now + REMEMBER_SECOND_FACTOR_DAYS * DAY_SECONDS
      : keptUntil,
    secondFactorVersion: account.secondFactorVersion,
  };
  const others = entries.filter((other) => other.accountId !== account.id).slice(0, MAX_ENTRIES - 1);
  reply.setCookie(DEVICE_COOKIE, [entry, ...others].map((each) => encode(key, each)).join('~'), {
    path: '/api/auth',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: DEVICE_COOKIE_DAYS * DAY_SECONDS,
  });
}
