import { createHash, randomBytes } from 'node:crypto';

/** Marks a driver device token, so that a leaked one is recognizable (secret scanners, logs). */
export const DEVICE_TOKEN_PREFIX = 'bmetd_';

/** A new device token: the prefix and 32 random bytes in base64url. Shown once, never stored. */
export function generateDeviceToken(): string {
  return DEVICE_TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** What the database keeps of a device token: its SHA-256, enough to recognize it, useless to replay. */
export function hashDeviceToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
