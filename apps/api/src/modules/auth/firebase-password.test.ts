import { describe, expect, it } from 'vitest';
import {
  firebaseScryptHash,
  openHashSecrets,
  sealHashSecrets,
  verifyFirebasePassword,
} from './firebase-password';

// Firebase's published test vector for its SCRYPT variant.
const PARAMS = {
  signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
  saltSeparator: 'Bw==',
  rounds: 8,
  memCost: 14,
};
const STORED = {
  salt: '42xEC+ixf3L2lw==',
  hash: 'lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==',
};

describe("Firebase's SCRYPT password hash", () => {
  it('reproduces the published test vector', async () => {
    expect((await firebaseScryptHash('user1password', STORED.salt, PARAMS)).toString('base64')).toBe(
      STORED.hash,
    );
  });

  it('accepts the right password and refuses others', async () => {
    expect(await verifyFirebasePassword('user1password', STORED, PARAMS)).toBe(true);
    expect(await verifyFirebasePassword('user1Password', STORED, PARAMS)).toBe(false);
    expect(await verifyFirebasePassword('user1password', { ...STORED, hash: '' }, PARAMS)).toBe(false);
    expect(await verifyFirebasePassword('user1password', STORED, { ...PARAMS, memCost: 40 })).toBe(false);
  });

  it('keeps the hash parameters sealed under the token secret', () => {
    const sealed = sealHashSecrets(PARAMS, 'a-secret-of-at-least-thirty-two-chars!!');
    expect(sealed).not.toContain(PARAMS.signerKey);
    expect(openHashSecrets(sealed, 'a-secret-of-at-least-thirty-two-chars!!')).toEqual({
      signerKey: PARAMS.signerKey,
      saltSeparator: PARAMS.saltSeparator,
    });
    expect(openHashSecrets(sealed, 'another-secret-of-at-least-thirty-two!!')).toBeNull();
  });
});
