import { describe, expect, it } from 'vitest';
import { createAccount } from '../../seed/factories';
import { authHeader, postSignIn, useTestApp } from '../../../test/test-app';

/**
 * An account keeps a bounded number of live sessions: signing in again and again never locks the
 * owner out (the newest sign-in always gets in), and the oldest sessions end, their streams with
 * them, so that one account cannot pile up sessions and the streams each may hold.
 */

const t = useTestApp();

describe('sessions per account', () => {
  it('keeps the 10 newest live sessions: the 11th sign-in ends the oldest', async () => {
    const account = await createAccount(t.db, { role: 'franchise' });
    const tokens: string[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await postSignIn(t.app, {
        email: account.email,
        password: account.password,
        role: 'franchise',
      });
      expect(response.statusCode).toBe(200);
      tokens.push(response.json().data.idToken as string);
    }
    const me = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

    expect((await me(tokens[0]!)).statusCode).toBe(401);
    for (const token of tokens.slice(1)) expect((await me(token)).statusCode).toBe(200);

    // The next sign-in ends the then oldest, and only it.
    const twelfth = await postSignIn(t.app, {
      email: account.email,
      password: account.password,
      role: 'franchise',
    });
    expect(twelfth.statusCode).toBe(200);
    expect((await me(tokens[1]!)).statusCode).toBe(401);
    expect((await me(tokens[2]!)).statusCode).toBe(200);
    expect((await me(twelfth.json().data.idToken)).statusCode).toBe(200);
  });
});
