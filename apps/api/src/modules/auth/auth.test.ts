import { eq } from 'drizzle-orm';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { ROLES, type Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { accounts } from '../../db/schema';
import { createAccount } from '../../seed/factories';
import {
  authHeader,
  decodeClaims,
  issueToken,
  postSignIn,
  signInAs,
  TEST_CONFIG,
  testAppOptions,
  uniqueAddress,
  useTestApp,
} from '../../../test/test-app';
import { buildApp } from '../../app';
import { revokeAccountSessions } from './repository';
import { roleLabel } from '@bmet/shared/role-label';

const t = useTestApp();

const me = (token?: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: token ? authHeader(token) : {} });

const unauthorized = { error: m.unauthorized(), code: 'UNAUTHORIZED' };
const sessionEnded = { error: m.sessionExpired(), code: 'UNAUTHORIZED' };
const invalidCredentials = { error: m.invalidCredentials(), code: 'UNAUTHORIZED' };

describe('POST /api/auth/sign-in', () => {
  it.each(ROLES)('signs in a %s on its own tab with an ID token carrying the role claim', async (role) => {
    const account = await createAccount(t.db, { role });
    const before = Date.now();
    const response = await postSignIn(t.app, { email: account.email, password: account.password, role });

    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      data: { idToken: expect.any(String), expirationTime: expect.any(Number), role, language: null },
    });
    const threeHours = 3 * 3_600_000;
    expect(body.data.expirationTime).toBeGreaterThanOrEqual(before + threeHours - 1000);
    expect(body.data.expirationTime).toBeLessThanOrEqual(Date.now() + threeHours + 1000);

    const claims = decodeClaims(body.data.idToken);
    expect(claims[role]).toBe(true);
    for (const other of ROLES.filter((r) => r !== role)) expect(claims).not.toHaveProperty(other);
    expect(claims.sub).toBe(account.id);
    expect(claims.exp).toBe(Math.floor(body.data.expirationTime / 1000));
  });

  it('treats the email case-insensitively and ignores surrounding spaces', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const response = await postSignIn(t.app, {
      email: `  ${account.email.toUpperCase()} `,
      password: account.password,
      role: 'admin',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.role).toBe('admin');
  });

  it.each([
    ['city_dealer', 'admin'],
    ['admin', 'franchise'],
    ['franchise', 'city_dealer'],
  ] as [Role, Role][])(
    'refuses a %s with the right password on the %s tab, naming the tab',
    async (role, tab) => {
      const account = await createAccount(t.db, { role });
      const response = await postSignIn(t.app, {
        email: account.email,
        password: account.password,
        role: tab,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: m.wrongTab({ role: roleLabel(tab) }), code: 'FORBIDDEN' });
    },
  );

  it('answers a wrong password and an unknown email with the very same status and body', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const wrongPassword = await postSignIn(t.app, {
      email: account.email,
      password: 'not-the-password',
      role: 'admin',
    });
    const unknownEmail = await postSignIn(t.app, {
      email: `nobody.${account.id}@example.in`,
      password: account.password,
      role: 'admin',
    });

    expect(wrongPassword.statusCode).toBe(401);
    expect(unknownEmail.statusCode).toBe(wrongPassword.statusCode);
    expect(wrongPassword.json()).toEqual(invalidCredentials);
    expect(unknownEmail.body).toBe(wrongPassword.body);
  });

  it('refuses a disabled account even with the right password', async () => {
    const account = await createAccount(t.db, { role: 'city_dealer', disabled: true });
    const response = await postSignIn(t.app, {
      email: account.email,
      password: account.password,
      role: 'city_dealer',
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: m.accountDisabled(), code: 'FORBIDDEN' });
  });

  it('answers 400 with a message per field for invalid input', async () => {
    const response = await postSignIn(t.app, { email: 'not-an-email', password: '', role: 'driver' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual({
      error: m.validationFailed(),
      code: 'VALIDATION',
      fieldErrors: {
        email: [expect.any(String)],
        password: [expect.any(String)],
        role: [expect.any(String)],
      },
    });
    expect(body.fieldErrors.email).toEqual(['Enter a valid email address.']);
  });

  it('names the field in the message when only one is invalid', async () => {
    const response = await postSignIn(t.app, { email: 'admin@example.in', role: 'admin' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.code).toBe('VALIDATION');
    expect(Object.keys(body.fieldErrors)).toEqual(['password']);
    expect(body.error).toMatch(/^password: /);
  });

  it('answers 400 to a body that is not valid JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "admin@example.in",',
      remoteAddress: uniqueAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid JSON.', code: 'VALIDATION' });
  });

  it('refuses a body that tries to poison object prototypes', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":"a@b.in","password":"x","role":"admin","__proto__":{"admin":true}}',
      remoteAddress: uniqueAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION');
  });

  it('names every bad field in words written for people', async () => {
    const response = await postSignIn(t.app, {
      email: 'not-an-email',
      password: 'x'.repeat(200),
      role: 'owner',
    } as never);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Some fields are not valid.',
      code: 'VALIDATION',
      fieldErrors: {
        email: ['Enter a valid email address.'],
        password: ['Must be at most 128 characters.'],
        role: ['Must be one of: admin, city_dealer, franchise.'],
      },
    });
  });
});

describe('sign-in throttling', () => {
  const tooManyAttempts = (response: { json: () => unknown; headers: Record<string, unknown> }) => {
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    expect(response.json()).toEqual({
      error: m.tooManyAttempts({ minutes: Math.ceil(retryAfter / 60) }),
      code: 'RATE_LIMITED',
    });
  };

  /** Signs in with the right password and answers the device cookie the browser was given. */
  const deviceCookieOf = async (
    account: { email: string; password: string; role: Role },
    address?: string,
  ) => {
    const response = await postSignIn(
      t.app,
      { email: account.email, password: account.password, role: account.role },
      { remoteAddress: address },
    );
    expect(response.statusCode).toBe(200);
    const cookie = response.cookies.find((each) => each.name === 'bmet_device');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/auth' });
    return `bmet_device=${cookie!.value}`;
  };
  const withCookie = (cookie: string) => ({ headers: { cookie } });

  it('lets a burst of parallel guesses check no more than 5 passwords of one email', async () => {
    const account = await createAccount(t.db, { role: 'franchise' });
    const ownersBrowser = await deviceCookieOf(account);
    const address = uniqueAddress();
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postSignIn(
          t.app,
          { email: account.email, password: `guess-number-${i}`, role: 'franchise' },
          { remoteAddress: address },
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
    tooManyAttempts(responses.find((response) => response.statusCode === 429)!);
    const body = { email: account.email, password: account.password, role: 'franchise' };
    // Browsers new to the account are refused, from that address or any other, even with the
    // right password ...
    expect((await postSignIn(t.app, body, { remoteAddress: address })).statusCode).toBe(429);
    expect((await postSignIn(t.app, body)).statusCode).toBe(429);
    // ... but the owner's browser is never refused because of someone else's guesses.
    expect(
      (await postSignIn(t.app, body, { remoteAddress: address, ...withCookie(ownersBrowser) })).statusCode,
    ).toBe(200);
  });

  it("never locks out the owner's browser, from the attackers' own address (an office, a carrier)", async () => {
    const office = uniqueAddress();
    const victim = await createAccount(t.db, { role: 'admin' });
    const victimsBrowser = await deviceCookieOf(victim, office);
    const signIn = (password: string, options: { headers?: Record<string, string> } = {}) =>
      postSignIn(
        t.app,
        { email: victim.email, password, role: 'admin' },
        { remoteAddress: office, ...options },
      );

    // Six rounds of guesses from the same address, without the victim's cookie: 5 are checked.
    const guesses: number[] = [];
    for (let round = 1; round <= 6; round++) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        guesses.push((await signIn(`guess-${round}-${attempt}`)).statusCode);
      }
      // The victim, in between, with the right password from their own browser.
      expect((await signIn(victim.password, withCookie(victimsBrowser))).statusCode, `round ${round}`).toBe(
        200,
      );
    }
    expect(guesses.filter((status) => status === 401)).toHaveLength(5);
    expect(guesses.filter((status) => status === 429)).toHaveLength(13);
  });

  it('limits guesses without the device cookie the same wherever they come from', async () => {
    const account = await createAccount(t.db, { role: 'city_dealer' });
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await postSignIn(t.app, {
        email: account.email,
        password: `distributed-guess-${attempt}`,
        role: 'city_dealer',
      });
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const sixth = await postSignIn(t.app, {
      email: account.email.toUpperCase(),
      password: 'wrong-again',
      role: 'city_dealer',
    });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toBe(m.tooManyAttempts({ minutes: 15 }));
  });

  it("counts a browser's own wrong passwords against that browser alone", async () => {
    const account = await createAccount(t.db, { role: 'franchise' });
    const cookie = await deviceCookieOf(account);
    const body = (password: string) => ({ email: account.email, password, role: 'franchise' });
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await postSignIn(t.app, body(`typo-${attempt}`), withCookie(cookie));
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    tooManyAttempts(await postSignIn(t.app, body(account.password), withCookie(cookie)));
    // Another browser of the owner is not held back by that one.
    expect((await postSignIn(t.app, body(account.password))).statusCode).toBe(200);
  });

  it('trusts no device cookie that was altered, forged or given to another account', async () => {
    const victim = await createAccount(t.db, { role: 'admin' });
    const other = await createAccount(t.db, { role: 'admin' });
    const othersCookie = await deviceCookieOf(other);
    const victimsCookie = await deviceCookieOf(victim);
    const [name, value] = victimsCookie.split('=') as [string, string];
    const altered = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    const forged = `${name}=${victim.id}.AAAAAAAAAAAAAAAAAAAAAA.${Math.floor(Date.now() / 1000)}.0.0.${'A'.repeat(43)}`;
    for (const cookie of [othersCookie, altered, forged]) {
      for (let attempt = 1; attempt <= 2; attempt++) {
        await postSignIn(
          t.app,
          { email: victim.email, password: `guess-${attempt}`, role: 'admin' },
          withCookie(cookie),
        );
      }
    }
    // Six failures counted as untrusted: the sixth untrusted attempt is refused.
    const refused = await postSignIn(t.app, {
      email: victim.email,
      password: victim.password,
      role: 'admin',
    });
    expect(refused.statusCode).toBe(429);
    expect(
      (
        await postSignIn(
          t.app,
          { email: victim.email, password: victim.password, role: 'admin' },
          withCookie(victimsCookie),
        )
      ).statusCode,
    ).toBe(200);
  });

  it('refuses browsers new to the account at an address where 20 sign-ins failed, and lets them in elsewhere', async () => {
    const office = uniqueAddress();
    const regular = await createAccount(t.db, { role: 'franchise' });
    const newcomer = await createAccount(t.db, { role: 'franchise' });
    const regularsBrowser = await deviceCookieOf(regular, office);
    for (let attempt = 1; attempt <= 20; attempt++) {
      await postSignIn(
        t.app,
        { email: `nobody.${attempt}.${office}@example.in`, password: 'whatever-it-is', role: 'franchise' },
        { remoteAddress: office },
      );
    }
    const signIn = (account: typeof regular, options: { headers?: Record<string, string> } = {}) =>
      postSignIn(
        t.app,
        { email: account.email, password: account.password, role: 'franchise' },
        { remoteAddress: office, ...options },
      );
    expect((await signIn(regular, withCookie(regularsBrowser))).statusCode).toBe(200);
    expect((await signIn(newcomer)).statusCode).toBe(429);
    const elsewhere = await postSignIn(t.app, {
      email: newcomer.email,
      password: newcomer.password,
      role: 'franchise',
    });
    expect(elsewhere.statusCode).toBe(200);
  });

  it('lets 50 people of one office sign in at once with their right passwords (a shift change)', async () => {
    const office = uniqueAddress();
    const staff = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createAccount(t.db, { role: i === 0 ? 'admin' : 'franchise' })),
    );
    const responses = await Promise.all(
      staff.map((account) =>
        postSignIn(
          t.app,
          { email: account.email, password: account.password, role: account.role },
          { remoteAddress: office },
        ),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(50).fill(200));
    // Right passwords never counted as failures: the office is not locked.
    const latecomer = await createAccount(t.db, { role: 'franchise' });
    const late = await postSignIn(
      t.app,
      { email: latecomer.email, password: latecomer.password, role: 'franchise' },
      { remoteAddress: office },
    );
    expect(late.statusCode).toBe(200);
  }, 60_000);

  it('forgets earlier failures after a successful sign-in', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const fail = () => postSignIn(t.app, { email: account.email, password: 'wrong-password', role: 'admin' });
    const succeed = () =>
      postSignIn(t.app, { email: account.email, password: account.password, role: 'admin' });
    for (let i = 0; i < 4; i++) expect((await fail()).statusCode).toBe(401);
    expect((await succeed()).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await fail()).statusCode).toBe(401);
    expect((await succeed()).statusCode).toBe(200);
  });

  it('locks an address after 20 failures across different emails', async () => {
    const address = uniqueAddress();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const response = await postSignIn(
        t.app,
        { email: `unknown.${attempt}.${address}@example.in`, password: 'whatever-it-is', role: 'admin' },
        { remoteAddress: address },
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const account = await createAccount(t.db, { role: 'admin' });
    const body = { email: account.email, password: account.password, role: 'admin' };

    const locked = await postSignIn(t.app, body, { remoteAddress: address });
    expect(locked.statusCode).toBe(429);
    tooManyAttempts(locked);

    const elsewhere = await postSignIn(t.app, body);
    expect(elsewhere.statusCode).toBe(200);
  });
});

describe('GET /api/auth/me', () => {
  it.each(ROLES)('answers the signed-in %s', async (role) => {
    const { account, token } = await signInAs(t, role, { displayName: `Test ${role}` });
    const response = await me(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: {
        uid: account.id,
        displayName: `Test ${role}`,
        email: account.email,
        role,
        state: role === 'admin' ? null : 'maharashtra',
        language: null,
      },
    });
  });

  it('answers 401 without a token', async () => {
    const response = await me();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(unauthorized);
  });

  it('answers 401 to an authorization header of another scheme', async () => {
    const { token } = await signInAs(t, 'admin');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Basic ${token}` },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(unauthorized);
  });
});

describe('tokens that are not good', () => {
  const flip = (text: string, index: number) =>
    text.slice(0, index) + (text[index] === 'A' ? 'B' : 'A') + text.slice(index + 1);

  it('refuses an expired token', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    // The session is still live: the token's own expiry must be enforced.
    const { token } = await issueToken(t.db, account, {
      expiresAt: new Date(Date.now() - 60_000),
      sessionExpiresAt: new Date(Date.now() + 3_600_000),
    });
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a token whose session has expired', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, account, {
      expiresAt: new Date(Date.now() + 3_600_000),
      sessionExpiresAt: new Date(Date.now() - 60_000),
    });
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a token with a changed signature', async () => {
    const { token } = await signInAs(t, 'admin');
    const [header, payload, signature] = token.split('.') as [string, string, string];
    // The middle of the signature: the last character of base64url carries padding bits.
    const tampered = `${header}.${payload}.${flip(signature, 10)}`;
    const response = await me(tampered);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a token whose claims were changed to another role', async () => {
    const { token } = await signInAs(t, 'franchise');
    const [header, , signature] = token.split('.') as [string, string, string];
    const claims = decodeClaims(token);
    delete claims.franchise;
    claims.admin = true;
    const forged = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    const response = await me(forged);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses an unsigned token (alg none)', async () => {
    const { token } = await signInAs(t, 'admin');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const response = await me(`${header}.${token.split('.')[1]}.`);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a token signed with another secret', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, account, { secret: 'another-secret-of-forty-characters-long!' });
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a token it accepted before, once the token expires', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, account, {
      expiresAt: new Date(Date.now() + 60_000),
      sessionExpiresAt: new Date(Date.now() + 3_600_000),
    });
    expect((await me(token)).statusCode).toBe(200);
    expect((await me(token)).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    // Also when the test times out with the request still running.
    onTestFinished(() => void vi.useRealTimers());
    vi.setSystemTime(Date.now() + 61_000);
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });

  it('refuses a good token written otherwise, with a tab or a space inside its signature', async () => {
    const { token } = await signInAs(t, 'admin');
    expect((await me(token)).statusCode).toBe(200);
    for (const inside of ['\t', ' ']) {
      const response = await me(`${token.slice(0, -8)}${inside}${token.slice(-8)}`);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(sessionEnded);
    }
  });

  it('refuses, on a server with another secret, a token that a server with its own secret accepted', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const { token } = await issueToken(t.db, account);
    expect((await me(token)).statusCode).toBe(200);
    const other = await buildApp({
      ...testAppOptions(t.db),
      config: { ...TEST_CONFIG, jwtSecret: 'another-secret-of-forty-characters-long!' },
    });
    try {
      const response = await other.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(sessionEnded);
    } finally {
      await other.close();
    }
    expect((await me(token)).statusCode).toBe(200);
  });

  it.each(['garbage', 'a.b.c', 'x'.repeat(2000)])('refuses the garbage token %#', async (garbage) => {
    const response = await me(garbage);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });
});

describe('revocation', () => {
  it('signs out a client that sends a JSON content type with no body', async () => {
    const { token } = await signInAs(t, 'franchise');
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { ...authHeader(token), 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('POST /api/auth/sign-out answers 204 and the same token then answers 401', async () => {
    const { token } = await signInAs(t, 'city_dealer');
    expect((await me(token)).statusCode).toBe(200);

    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: authHeader(token),
    });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');

    const after = await me(token);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual(sessionEnded);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: authHeader(token),
    });
    expect(again.statusCode).toBe(401);
  });

  it('signing out ends only that session', async () => {
    const { account, token } = await signInAs(t, 'admin');
    const other = await postSignIn(t.app, {
      email: account.email,
      password: account.password,
      role: 'admin',
    });
    const otherToken = other.json().data.idToken as string;

    await t.app.inject({ method: 'POST', url: '/api/auth/sign-out', headers: authHeader(token) });
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(otherToken)).statusCode).toBe(200);
  });

  it('revokeAccountSessions ends every session of the account and no other', async () => {
    const { account, token } = await signInAs(t, 'franchise');
    const second = await issueToken(t.db, account);
    const bystander = await signInAs(t, 'franchise');

    await revokeAccountSessions(t.db, account.id);

    expect((await me(token)).statusCode).toBe(401);
    expect((await me(second.token)).statusCode).toBe(401);
    expect((await me(bystander.token)).statusCode).toBe(200);
  });

  it('a disabled account loses its live tokens', async () => {
    const { account, token } = await signInAs(t, 'city_dealer');
    await t.db.update(accounts).set({ disabled: true }).where(eq(accounts.id, account.id));
    const response = await me(token);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(sessionEnded);
  });
});

describe('every response', () => {
  const responses = () => ({
    'a successful sign-in': async () => {
      const account = await createAccount(t.db, { role: 'admin' });
      return postSignIn(t.app, { email: account.email, password: account.password, role: 'admin' });
    },
    'a 401': () => me(),
    'a 400': () => postSignIn(t.app, {}),
    'an unknown /api path': () => t.app.inject({ method: 'GET', url: '/api/no-such-thing' }),
    'the / redirect': () => t.app.inject({ method: 'GET', url: '/' }),
  });

  it.each(Object.keys(responses()))('carries the security headers and a request id: %s', async (name) => {
    const response = await responses()[name as keyof ReturnType<typeof responses>]();
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src'));
    expect(scriptSrc).toBeDefined();
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(csp).toMatch(/default-src 'self'/);
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['referrer-policy']).toBeTruthy();
    expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
  });

  it("replaces a caller's x-request-id unless a trusted proxy set it (audit rows store it)", async () => {
    const given = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-request-id': 'trace-1234abcd' },
    });
    expect(given.headers['x-request-id']).not.toBe('trace-1234abcd');
    expect(given.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);

    const behindProxy = await buildApp({
      ...testAppOptions(t.db),
      config: { ...TEST_CONFIG, trustProxy: 1 },
    });
    try {
      const kept = await behindProxy.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { 'x-request-id': 'trace-1234abcd' },
      });
      expect(kept.headers['x-request-id']).toBe('trace-1234abcd');
      const malformed = await behindProxy.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: { 'x-request-id': 'no good <script>' },
      });
      expect(malformed.headers['x-request-id']).not.toBe('no good <script>');
      expect(malformed.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    } finally {
      await behindProxy.close();
    }
  });
});

describe('unknown /api paths', () => {
  it.each([
    ['GET', '/api/no-such-thing'],
    ['POST', '/api/no-such-thing'],
    ['GET', '/api'],
    ['GET', '/api/'],
    ['DELETE', '/api/auth/me'],
  ] as const)('%s %s answers a JSON 404', async (method, url) => {
    const response = await t.app.inject({ method, url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ error: m.notFound(), code: 'NOT_FOUND' });
  });
});
