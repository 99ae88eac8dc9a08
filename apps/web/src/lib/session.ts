import type { Role } from '@bmet/shared/constants';
import { ROLES, SESSION_KEYS } from '@bmet/shared/constants';
import { COLOR_SCHEME_STORAGE_KEY } from '@bmet/shared/boot-script';

export type Session = { idToken: string; expirationTime: number; role: Role };

/** The session kept in session storage under the spec's keys, or null when absent or expired. */
export function readSession(): Session | null {
  const idToken = sessionStorage.getItem(SESSION_KEYS.idToken);
  const expirationTime = Number(sessionStorage.getItem(SESSION_KEYS.expirationTime));
  const role = sessionStorage.getItem(SESSION_KEYS.currentClaim) as Role | null;
  if (!idToken || !role || !ROLES.includes(role)) return null;
  if (!Number.isFinite(expirationTime) || expirationTime <= Date.now()) {
    clearSession();
    return null;
  }
  return { idToken, expirationTime, role };
}

/**
 * Saves a fresh sign-in as the spec says: local storage cleared, token, expiry and role kept. The
 * colour scheme is the browser's, not the account's: chosen on the sign-in screen, it stays.
 */
export function saveSession(session: Session): void {
  const scheme = localStorage.getItem(COLOR_SCHEME_STORAGE_KEY);
  localStorage.clear();
  if (scheme !== null) localStorage.setItem(COLOR_SCHEME_STORAGE_KEY, scheme);
  sessionStorage.setItem(SESSION_KEYS.idToken, session.idToken);
  sessionStorage.setItem(SESSION_KEYS.expirationTime, String(session.expirationTime));
  sessionStorage.setItem(SESSION_KEYS.currentClaim, session.role);
}

export function clearSession(): void {
  sessionStorage.clear();
}
