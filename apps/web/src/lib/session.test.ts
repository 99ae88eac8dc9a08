import { describe, expect, it } from 'vitest';
import { clearSession, readSession, saveSession } from './session';

describe('session storage', () => {
  it('keeps the token, expiry and role under the spec keys and clears local storage', () => {
    localStorage.setItem('stale', 'x');
    saveSession({ idToken: 'tok', expirationTime: Date.now() + 60_000, role: 'franchise' });
    expect(sessionStorage.getItem('idToken')).toBe('tok');
    expect(sessionStorage.getItem('currentClaim')).toBe('franchise');
    expect(Number(sessionStorage.getItem('expirationTime'))).toBeGreaterThan(Date.now());
    expect(localStorage.getItem('stale')).toBeNull();
    expect(readSession()?.role).toBe('franchise');
  });

  it('keeps the colour scheme chosen before the sign-in', () => {
    localStorage.setItem('mantine-color-scheme-value', 'dark');
    saveSession({ idToken: 'tok', expirationTime: Date.now() + 60_000, role: 'admin' });
    expect(localStorage.getItem('mantine-color-scheme-value')).toBe('dark');
  });

  it('treats an expired session as signed out and clears it', () => {
    saveSession({ idToken: 'tok', expirationTime: Date.now() - 1, role: 'admin' });
    expect(readSession()).toBeNull();
    expect(sessionStorage.getItem('idToken')).toBeNull();
  });

  it('ignores an unknown role', () => {
    sessionStorage.setItem('idToken', 'tok');
    sessionStorage.setItem('expirationTime', String(Date.now() + 60_000));
    sessionStorage.setItem('currentClaim', 'superuser');
    expect(readSession()).toBeNull();
    clearSession();
  });
});
