import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { auditLog } from '../../db/schema';
import {
  authHeader,
  issueToken,
  postSignIn,
  signInAs,
  uniqueAddress,
  useTestApp,
  type SignedIn,
} from '../../../test/test-app';
import { hashResetToken } from './password-routes';
import { insertResetToken } from './repository';

const t = useTestApp();

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

const changeName = (token: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: '/api/auth/me/name', headers: authHeader(token), payload });

const changePassword = (
  token: string,
  payload: Record<string, unknown>,
  options: { remoteAddress?: string; cookie?: string } = {},
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/me/password',
    headers: { ...authHeader(token), ...(options.cookie ? { cookie: options.cookie } : {}) },
    payload,
    remoteAddress: options.remoteAddress ?? uniqueAddress(),
  });

const signIn = (user: SignedIn, password: string, headers?: Record<string, string>) =>
  postSignIn(t.app, { email: user.account.email, password, role: user.account.role }, { headers });

const refusedField = (field: string, message: string) => ({
  error: message,
  code: 'VALIDATION',
  fieldErrors: { [field]: [message] },
});

describe('PATCH /api/auth/me/name', () => {
  it.each(['city_dealer', 'franchise', 'admin'] as const)(
    'lets a %s change its display name, which the current user then carries, audited',
    async (role) => {
      const user = await signInAs(t, role, { displayName: 'Old Name' });
      const response = await changeName(user.token, { displayName: '  Meera Iyer ' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ uid: user.account.id, displayName: 'Meera Iyer', role });
      expect((await me(user.token)).json().data.displayName).toBe('Meera Iyer');
      const [audit] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.resource, 'profile'), eq(auditLog.resourceId, user.account.id)));
      expect(audit).toMatchObject({
        actorId: user.account.id,
        action: 'update',
        before: { displayName: 'Old Name' },
        after: { displayName: 'Meera Iyer' },
      });
    },
  );

  it('refuses an empty or too long name, naming the field, and keeps the old one', async () => {
    const user = await signInAs(t, 'franchise', { displayName: 'Kept Name' });
    const empty = await changeName(user.token, { displayName: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors).toEqual({ displayName: [m.enterDisplayName()] });
    const long = await changeName(user.token, { displayName: 'x'.repeat(101) });
    expect(long.statusCode).toBe(400);
    expect(long.json().fieldErrors).toHaveProperty('displayName');
    expect((await me(user.token)).json().data.displayName).toBe('Kept Name');
  });
});

describe('POST /api/auth/me/password', () => {
  it('changes the password: this session stays, the others end, reset links die, audited', async () => {
    const user = await signInAs(t, 'city_dealer');
    const elsewhere = await issueToken(t.db, user.account);
    const resetToken = randomBytes(32).toString('base64url');
    await insertResetToken(t.db, {
      accountId: user.account.id,
      tokenHash: hashResetToken(resetToken),
      expiresAt: new Date(Date.now() + 10 * 60_000),
      requestedIp: null,
    });

    const response = await changePassword(user.token, {
      currentPassword: user.account.password,
      newPassword: 'dealer-chose-this-one',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: { message: m.ownPasswordChanged() } });

    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(elsewhere.token)).statusCode).toBe(401);
    expect((await signIn(user, user.account.password)).statusCode).toBe(401);
    expect((await signIn(user, 'dealer-chose-this-one')).statusCode).toBe(200);
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/password-reset/confirm',
      payload: { token: resetToken, password: 'someone-elses-choice' },
      remoteAddress: uniqueAddress(),
    });
    expect(reset.statusCode).toBe(400);
    expect(reset.json().error).toBe(m.resetLinkInvalid());

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'passwords'), eq(auditLog.resourceId, user.account.id)));
    expect(audit).toMatchObject({ actorId: user.account.id, action: 'update' });
    expect(JSON.stringify(audit)).not.toContain('dealer-chose-this-one');
  });

  it('lets an admin change its own password too', async () => {
    const admin = await signInAs(t, 'admin');
    const response = await changePassword(admin.token, {
      currentPassword: admin.account.password,
      newPassword: 'an-admins-own-choice',
    });
    expect(response.statusCode).toBe(200);
    expect((await signIn(admin, 'an-admins-own-choice')).statusCode).toBe(200);
  });

  // RIGHT stands for the account's password.
  it.each([
    ['an empty current password', '', 'a-fine-new-passphrase', 'currentPassword', m.enterCurrentPassword()],
    ['a short new password', 'RIGHT', 'short', 'newPassword', m.passwordTooShort({ min: 8 })],
    ['a common new password', 'RIGHT', 'qwertyuiop', 'newPassword', m.passwordTooCommon()],
    ['the current password again', 'RIGHT', 'RIGHT', 'newPassword', m.newPasswordSameAsCurrent()],
  ])('refuses %s, naming the field, and keeps the password', async (_name, current, next, field, message) => {
    const user = await signInAs(t, 'franchise');
    const password = (text: string) => (text === 'RIGHT' ? user.account.password : text);
    const response = await changePassword(user.token, {
      currentPassword: password(current),
      newPassword: password(next),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(refusedField(field, message));
    expect((await signIn(user, user.account.password)).statusCode).toBe(200);
  });

  it('refuses a wrong current password and counts it as a failed sign-in: the account locks as sign-in locks it', async () => {
    const user = await signInAs(t, 'franchise');
    const other = await issueToken(t.db, user.account);
    const address = uniqueAddress();
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await changePassword(
        user.token,
        { currentPassword: `guess-${attempt}`, newPassword: 'a-takeover-passphrase' },
        { remoteAddress: address },
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(400);
      expect(response.json()).toEqual(refusedField('currentPassword', m.currentPasswordWrong()));
    }
    // Past the sign-in's limit, even the right password is refused with the sign-in's message ...
    const locked = await changePassword(
      user.token,
      { currentPassword: user.account.password, newPassword: 'a-takeover-passphrase' },
      { remoteAddress: address },
    );
    expect(locked.statusCode).toBe(429);
    const retryAfter = Number(locked.headers['retry-after']);
    expect(locked.json()).toEqual({
      error: m.tooManyAttempts({ minutes: Math.ceil(retryAfter / 60) }),
      code: 'RATE_LIMITED',
    });
    // ... the sign-in of browsers new to the account is locked too, and nothing changed.
    expect((await signIn(user, user.account.password)).statusCode).toBe(429);
    expect((await me(user.token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(200);
  });

  it("counts the wrong passwords of the owner's browser against that browser alone, as sign-in does", async () => {
    const user = await signInAs(t, 'city_dealer');
    const first = await postSignIn(t.app, {
      email: user.account.email,
      password: user.account.password,
      role: 'city_dealer',
    });
    const cookie = first.cookies.find((each) => each.name === 'bmet_device');
    expect(cookie).toBeDefined();
    const browser = `bmet_device=${cookie!.value}`;
    const token = first.json().data.idToken as string;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const response = await changePassword(
        token,
        { currentPassword: `typo-${attempt}`, newPassword: 'a-careful-passphrase' },
        { cookie: browser },
      );
      expect(response.statusCode, `attempt ${attempt}`).toBe(400);
    }
    const locked = await changePassword(
      token,
      { currentPassword: user.account.password, newPassword: 'a-careful-passphrase' },
      { cookie: browser },
    );
    expect(locked.statusCode).toBe(429);
    expect((await signIn(user, user.account.password, { cookie: browser })).statusCode).toBe(429);
    // Another browser of the owner is not held back.
    expect((await signIn(user, user.account.password)).statusCode).toBe(200);
  });
});
