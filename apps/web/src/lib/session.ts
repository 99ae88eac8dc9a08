import type { Role } from '@bmet/shared/constants';
import { ROLES, SESSION_KEYS } from '@bmet/shared/constants';

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

/** Saves a fresh sign-in as the spec says: local storage cleared, token, expiry and role kept. */
export function saveSession(session: Session): void {
  localStorage.clear();
  sessionStorage.setItem(SESSION_KEYS.idToken, session.idToken);
  sessionStorage.setItem(SESSION_KEYS.expirationTime, String(session.expirationTime));
  sessionStorage.setItem(SESSION_KEYS.currentClaim, session.role);
}

export function clearSession(): void {
  sessionStorage.clear();
}
