/**
 * Whether this browser can use passkeys at all (it cannot outside HTTPS or localhost). Apart from
 * lib/second-factor.ts, which the sign-in screen loads only when a passkey is used.
 */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}
