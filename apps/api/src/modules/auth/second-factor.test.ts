import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import type { Role } from '@bmet/shared/constants';
import { buildApp, type App } from '../../app';
import { auditLog } from '../../db/schema';
import { createAccount } from '../../seed/factories';
import {
  authHeader,
  postSignIn,
  signInAs,
  TEST_CONFIG,
  testAppOptions,
  uniqueAddress,
  useTestApp,
} from '../../../test/test-app';
import { SoftwarePasskey } from '../../../test/software-passkey';
import { clearAdminSecondFactor } from './second-factor';

const t = useTestApp();
const ORIGIN = 'http://localhost:3000';

type Account = Awaited<ReturnType<typeof createAccount>>;

const post = (app: App, url: string, payload: unknown, options: { token?: string; cookie?: string } = {}) =>
  app.inject({
    method: 'POST',
    url,
    payload: payload as Record<string, unknown>,
    remoteAddress: uniqueAddress(),
    headers: {
      ...(options.token ? authHeader(options.token) : {}),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
  } as InjectOptions);

const deviceCookie = (response: { cookies: { name: string; value: string }[] }) => {
  const cookie = response.cookies.find((each) => each.name === 'bmet_device');
  return cookie ? `bmet_device=${cookie.value}` : undefined;
};

/** A code of the next 30-second step: the one of this step may have been used already. */
const nextCode = (secret: string, steps = 1) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

/** Enrols an authenticator app for a signed-in account; answers its secret and recovery codes. */
async function enrolTotp(app: App, token: string) {
  const started = await post(app, '/api/auth/second-factor/totp', {}, { token });
  expect(started.statusCode).toBe(200);
  const { secret, uri } = started.json().data as { secret: string; uri: string };
  const confirmed = await post(
    app,
    '/api/auth/second-factor/totp/confirm',
    { code: await generate({ secret }) },
    { token },
  );
  expect(confirmed.statusCode).toBe(200);
  return { secret, uri, recoveryCodes: confirmed.json().data.recoveryCodes as string[] };
}

const passwordStep = (app: App, account: Account, options: { cookie?: string } = {}) =>
  post(
    app,
    '/api/auth/sign-in',
    { email: account.email, password: account.password, role: account.role },
    options,
  );

describe('an authenticator app (TOTP)', () => {
  it('is set up with a QR code URI and a first code, and gives ten recovery codes once', async () => {
    const { account, token } = await signInAs(t, 'franchise');
    const wrong = await post(t.app, '/api/auth/second-factor/totp', {}, { token });
    const { secret } = wrong.json().data;
    const refused = await post(t.app, '/api/auth/second-factor/totp/confirm', { code: '000000' }, { token });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION', error: m.secondFactorWrongCode() });
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/auth/second-factor', headers: authHeader(token) })
      ).json(),
    ).toMatchObject({ data: { totp: false, recoveryCodesLeft: 0 } });

    const confirmed = await post(
      t.app,
      '/api/auth/second-factor/totp/confirm',
      { code: await generate({ secret }) },
      { token },
    );
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes, signIn } = confirmed.json().data;
    expect(signIn).toBeNull();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);

    const status = await t.app.inject({
      method: 'GET',
      url: '/api/auth/second-factor',
      headers: authHeader(token),
    });
    expect(status.json()).toEqual({
      data: { totp: true, passkeys: [], recoveryCodesLeft: 10, required: false },
    });
    expect(wrong.json().data.uri).toMatch(
      new RegExp(
        `^otpauth://totp/Book-My-ETaxi:${encodeURIComponent(account.email).replace(/\./g, '\\.')}\\?`,
      ),
    );
  });

  it('makes sign-in answer a second step instead of a token, never a 401; the code then signs in', async () => {
    const { account, token } = await signInAs(t, 'city_dealer');
    const { secret } = await enrolTotp(t.app, token);

    const first = await passwordStep(t.app, account);
    expect(first.statusCode).toBe(200);
    const { data } = first.json();
    expect(data).toEqual({ secondFactor: { challenge: expect.any(String), methods: ['totp', 'recovery'] } });
    expect(deviceCookie(first)).toBeUndefined();

    const wrong = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge: data.secondFactor.challenge,
      code: '123 456',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(m.secondFactorWrongCode());

    const right = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge: data.secondFactor.challenge,
      code: await nextCode(secret),
    });
    expect(right.statusCode).toBe(200);
    const signedIn = right.json().data;
    expect(signedIn).toEqual({
      idToken: expect.any(String),
      expirationTime: expect.any(Number),
      role: 'city_dealer',
      language: null,
    });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(signedIn.idToken) }))
        .statusCode,
    ).toBe(200);
    // The challenge worked once.
    const again = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge: data.secondFactor.challenge,
      code: await nextCode(secret, 2),
    });
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toBe(m.secondFactorSignInAgain());
  });

  it('accepts each code once', async () => {
    const { account, token } = await signInAs(t, 'admin');
    const { secret } = await enrolTotp(t.app, token);
    const code = await nextCode(secret);
    const challenge = async () =>
      (await passwordStep(t.app, account)).json().data.secondFactor.challenge as string;
    expect(
      (await post(t.app, '/api/auth/sign-in/second-factor', { challenge: await challenge(), code }))
        .statusCode,
    ).toBe(200);
    expect(
      (await post(t.app, '/api/auth/sign-in/second-factor', { challenge: await challenge(), code }))
        .statusCode,
    ).toBe(401);
  });

  it('ends a challenge after 5 wrong codes, and counts them as failed sign-ins', async () => {
    const { account, token } = await signInAs(t, 'franchise');
    const { secret } = await enrolTotp(t.app, token);
    const { challenge } = (await passwordStep(t.app, account)).json().data.secondFactor;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await post(t.app, '/api/auth/sign-in/second-factor', {
        challenge,
        code: `00000${attempt}`,
      });
      expect(response.statusCode, `attempt ${attempt}`).toBe(401);
    }
    const ended = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge,
      code: await nextCode(secret),
    });
    expect(ended.json().error).toBe(m.secondFactorSignInAgain());
    // Those five failures lock the account to browsers new to it, as five wrong passwords would.
    expect((await passwordStep(t.app, account)).statusCode).toBe(429);
  });

  it('lets a recovery code stand in for the app, once each', async () => {
    const { account, token } = await signInAs(t, 'admin');
    const { recoveryCodes } = await enrolTotp(t.app, token);
    const [code] = recoveryCodes as [string];
    const step = async () =>
      (await passwordStep(t.app, account)).json().data.secondFactor.challenge as string;
    const used = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge: await step(),
      recoveryCode: code.toUpperCase(),
    });
    expect(used.statusCode).toBe(200);
    const reused = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge: await step(),
      recoveryCode: code,
    });
    expect(reused.statusCode).toBe(401);
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/auth/second-factor',
      headers: authHeader(token),
    });
    expect(status.json().data.recoveryCodesLeft).toBe(9);
  });

  it('remembers a browser for 30 days when asked, and only that browser', async () => {
    const { account, token } = await signInAs(t, 'franchise');
    const { secret } = await enrolTotp(t.app, token);
    const { challenge } = (await passwordStep(t.app, account)).json().data.secondFactor;
    const remembered = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge,
      code: await nextCode(secret),
      remember: true,
    });
    const cookie = deviceCookie(remembered)!;
    const maxAge = remembered.cookies.find((each) => each.name === 'bmet_device')!.maxAge!;
    expect(maxAge).toBeGreaterThanOrEqual(30 * 86_400);

    const here = await passwordStep(t.app, account, { cookie });
    expect(here.json().data.idToken).toEqual(expect.any(String));
    const elsewhere = await passwordStep(t.app, account);
    expect(elsewhere.json().data.secondFactor).toBeDefined();
  });

  it('is asked after a password reset too', async () => {
    const { account, token } = await signInAs(t, 'admin');
    await enrolTotp(t.app, token);
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: account.email },
    });
    expect(answer.statusCode).toBe(202);
    // The link's token is read from the table's hash only; a link is made here as the route does.
    const { randomBytes } = await import('node:crypto');
    const { passwordResetTokens } = await import('../../db/schema');
    const { hashResetToken } = await import('./password-routes');
    const link = randomBytes(32).toString('base64url');
    await t.db.insert(passwordResetTokens).values({
      accountId: account.id,
      tokenHash: hashResetToken(link),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const confirmed = await post(t.app, '/api/auth/password-reset/confirm', {
      token: link,
      password: 'a-brand-new-passphrase',
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().data).toEqual({
      secondFactor: { challenge: expect.any(String), methods: ['totp', 'recovery'] },
    });
  });
});

describe('passkeys', () => {
  async function addPasskey(app: App, token: string) {
    const passkey = new SoftwarePasskey(ORIGIN);
    const started = await post(app, '/api/auth/second-factor/passkeys/options', {}, { token });
    expect(started.statusCode).toBe(200);
    const { challenge, options } = started.json().data;
    const kept = await post(
      app,
      '/api/auth/second-factor/passkeys',
      { challenge, passkey: passkey.register(options), name: 'Office laptop' },
      { token },
    );
    expect(kept.statusCode).toBe(200);
    return { passkey, recoveryCodes: kept.json().data.recoveryCodes as string[] | null };
  }

  it('are kept per account, named, and used as the second step', async () => {
    const { account, token } = await signInAs(t, 'franchise');
    const { passkey, recoveryCodes } = await addPasskey(t.app, token);
    expect(recoveryCodes).toHaveLength(10);
    const status = (
      await t.app.inject({ method: 'GET', url: '/api/auth/second-factor', headers: authHeader(token) })
    ).json();
    expect(status.data.passkeys).toEqual([
      { id: passkey.id, name: 'Office laptop', createdAt: expect.any(String), lastUsedAt: null },
    ]);

    const { challenge, methods } = (await passwordStep(t.app, account)).json().data.secondFactor;
    expect(methods).toEqual(['passkey', 'recovery']);
    const { options } = (await post(t.app, '/api/auth/passkey/options', { challenge })).json().data;
    expect(options.allowCredentials).toEqual([expect.objectContaining({ id: passkey.id })]);
    const signedIn = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge,
      passkey: passkey.assert(options),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data.role).toBe('franchise');
  });

  it("refuse another account's passkey, and an answer to another challenge", async () => {
    const victim = await signInAs(t, 'admin');
    await addPasskey(t.app, victim.token);
    const attacker = await signInAs(t, 'franchise');
    const { passkey: attackersPasskey } = await addPasskey(t.app, attacker.token);

    const { challenge } = (await passwordStep(t.app, victim.account)).json().data.secondFactor;
    const { options } = (await post(t.app, '/api/auth/passkey/options', { challenge })).json().data;
    const refused = await post(t.app, '/api/auth/sign-in/second-factor', {
      challenge,
      passkey: attackersPasskey.assert(options),
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(m.secondFactorPasskeyRefused());
  });

  it('sign in without a password, on the tab of their role only', async () => {
    const { account, token } = await signInAs(t, 'city_dealer');
    const { passkey } = await addPasskey(t.app, token);
    const begin = async () => (await post(t.app, '/api/auth/passkey/options', {})).json().data;

    const onAdminTab = await begin();
    const wrongTab = await post(t.app, '/api/auth/sign-in/passkey', {
      challenge: onAdminTab.challenge,
      role: 'admin',
      passkey: passkey.assert(onAdminTab.options),
    });
    expect(wrongTab.statusCode).toBe(403);

    const unverified = await begin();
    const noUserVerification = await post(t.app, '/api/auth/sign-in/passkey', {
      challenge: unverified.challenge,
      role: 'city_dealer',
      passkey: passkey.assert(unverified.options, { verified: false }),
    });
    expect(noUserVerification.statusCode).toBe(401);

    const right = await begin();
    const signedIn = await post(t.app, '/api/auth/sign-in/passkey', {
      challenge: right.challenge,
      role: 'city_dealer',
      passkey: passkey.assert(right.options),
    });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().data).toMatchObject({ role: 'city_dealer', idToken: expect.any(String) });
    expect(deviceCookie(signedIn)).toBeDefined();
    void account;
  });
});

describe('REQUIRE_SECOND_FACTOR', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp({
      ...testAppOptions(t.db),
      config: { ...TEST_CONFIG, requireSecondFactor: ['admin'] as Role[] },
    });
    await app.ready();
  });
  afterAll(async () => app?.close());

  it('makes an account of such a role enrol at sign-in, then signs it in', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const first = await passwordStep(app, account);
    expect(first.statusCode).toBe(200);
    const { challenge, methods } = first.json().data.secondFactor;
    expect(methods).toEqual(['enrol']);
    // The challenge proves the password only: it opens no session by itself.
    expect(
      (await post(app, '/api/auth/sign-in/second-factor', { challenge, code: '123456' })).statusCode,
    ).toBe(401);

    const { secret } = (await post(app, '/api/auth/second-factor/totp', { challenge })).json().data;
    const done = await post(app, '/api/auth/second-factor/totp/confirm', {
      challenge,
      code: await generate({ secret }),
    });
    expect(done.statusCode).toBe(200);
    const { recoveryCodes, signIn } = done.json().data;
    expect(recoveryCodes).toHaveLength(10);
    expect(signIn).toMatchObject({ role: 'admin', idToken: expect.any(String) });
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(signIn.idToken) }))
        .statusCode,
    ).toBe(200);

    // Once enrolled, a sign-in's challenge cannot add another method (the password is not enough).
    const next = (await passwordStep(app, account)).json().data.secondFactor;
    expect(next.methods).toEqual(['totp', 'recovery']);
    expect((await post(app, '/api/auth/second-factor/totp', { challenge: next.challenge })).statusCode).toBe(
      401,
    );
  });

  it('leaves other roles alone, and keeps a required account from removing its last method', async () => {
    const franchise = await createAccount(t.db, { role: 'franchise' });
    expect((await passwordStep(app, franchise)).json().data.idToken).toEqual(expect.any(String));

    const account = await createAccount(t.db, { role: 'admin' });
    const { challenge } = (await passwordStep(app, account)).json().data.secondFactor;
    const { secret } = (await post(app, '/api/auth/second-factor/totp', { challenge })).json().data;
    const { signIn } = (
      await post(app, '/api/auth/second-factor/totp/confirm', { challenge, code: await generate({ secret }) })
    ).json().data;
    const removed = await app.inject({
      method: 'DELETE',
      url: '/api/auth/second-factor/totp',
      headers: authHeader(signIn.idToken),
    });
    expect(removed.statusCode).toBe(400);
    expect(removed.json().error).toBe(m.secondFactorStillRequired());
  });
});

describe('POST /api/admin/reset-second-factor', () => {
  it("clears an account's second factor, ends its sessions, and is audited; admins only", async () => {
    const owner = await signInAs(t, 'city_dealer');
    await enrolTotp(t.app, owner.token);
    const franchise = await signInAs(t, 'franchise');
    const forbidden = await post(
      t.app,
      '/api/admin/reset-second-factor',
      { email: owner.account.email },
      { token: franchise.token },
    );
    expect(forbidden.statusCode).toBe(403);

    const admin = await signInAs(t, 'admin');
    const reset = await post(
      t.app,
      '/api/admin/reset-second-factor',
      { email: owner.account.email },
      { token: admin.token },
    );
    expect(reset.statusCode).toBe(200);
    expect(reset.json().data.message).toBe(m.secondFactorResetDone({ email: owner.account.email }));
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(owner.token) }))
        .statusCode,
    ).toBe(401);
    expect((await passwordStep(t.app, owner.account)).json().data.idToken).toEqual(expect.any(String));

    const [entry] = await t.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.resource, 'second-factor'),
          eq(auditLog.resourceId, owner.account.id),
          eq(auditLog.action, 'reset'),
        ),
      );
    expect(entry).toMatchObject({
      actorId: admin.account.id,
      before: { totp: true, passkeys: 0, recoveryCodesLeft: 10 },
    });

    const unknown = await post(
      t.app,
      '/api/admin/reset-second-factor',
      { email: 'nobody@example.in' },
      { token: admin.token },
    );
    expect(unknown.statusCode).toBe(404);
  });
});

describe('sign-in without a second factor', () => {
  it('is unchanged: the password answers the token', async () => {
    const account = await createAccount(t.db, { role: 'franchise' });
    const response = await postSignIn(t.app, {
      email: account.email,
      password: account.password,
      role: 'franchise',
    });
    expect(response.json().data.idToken).toEqual(expect.any(String));
  });
});

describe('npm run create-admin -- --clear-second-factor', () => {
  it("clears a locked-out admin's second factor and ends their sessions; refuses other roles", async () => {
    const admin = await signInAs(t, 'admin');
    await enrolTotp(t.app, admin.token);
    expect(await clearAdminSecondFactor(t.db, admin.account.email.toUpperCase())).toBe('cleared');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(admin.token) }))
        .statusCode,
    ).toBe(401);
    expect((await passwordStep(t.app, admin.account)).json().data.idToken).toEqual(expect.any(String));
    expect(await clearAdminSecondFactor(t.db, admin.account.email)).toBe('none');

    const dealer = await signInAs(t, 'city_dealer');
    await enrolTotp(t.app, dealer.token);
    expect(await clearAdminSecondFactor(t.db, dealer.account.email)).toBe('not-admin');
    expect(await clearAdminSecondFactor(t.db, 'nobody@example.in')).toBe('unknown');
  });
});
