import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { accounts, auditLog } from '../../db/schema';
import { createAccount } from '../../seed/factories';
import { authHeader, issueToken, postSignIn, signInAs, useTestApp } from '../../../test/test-app';

const t = useTestApp();

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

const updatePassword = (token: string, body: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/update-password',
    headers: authHeader(token),
    payload: body,
  });

describe('POST /api/admin/update-password', () => {
  it("sets an account's password: its old tokens stop working, the new password signs in", async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await signInAs(t, 'city_dealer');

    const response = await updatePassword(admin.token, {
      email: dealer.account.email.toUpperCase(),
      newPassword: 'a-fresh-dealer-passphrase',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      data: { message: m.passwordUpdated({ email: dealer.account.email }) },
    });

    expect((await me(dealer.token)).statusCode).toBe(401);
    const signIn = (password: string) =>
      postSignIn(t.app, { email: dealer.account.email, password, role: 'city_dealer' });
    expect((await signIn(dealer.account.password)).statusCode).toBe(401);
    expect((await signIn('a-fresh-dealer-passphrase')).statusCode).toBe(200);

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'passwords'), eq(auditLog.resourceId, dealer.account.id)));
    expect(audit).toMatchObject({ actorId: admin.account.id, action: 'update' });
    expect(JSON.stringify(audit)).not.toContain('a-fresh-dealer-passphrase');
  });

  it('keeps an admin who changes their own password signed in here, and ends their other sessions', async () => {
    const admin = await signInAs(t, 'admin');
    const elsewhere = await issueToken(t.db, admin.account);
    const response = await updatePassword(admin.token, {
      email: admin.account.email,
      newPassword: 'my-own-new-passphrase',
    });
    expect(response.statusCode).toBe(200);
    expect((await me(admin.token)).statusCode).toBe(200);
    expect((await me(elsewhere.token)).statusCode).toBe(401);
  });

  it.each([
    ['no email', { newPassword: 'a-fresh-passphrase' }],
    ['a blank email', { email: '  ', newPassword: 'a-fresh-passphrase' }],
    ['no new password', { email: 'someone@example.in' }],
    ['an empty new password', { email: 'someone@example.in', newPassword: '' }],
    ['nothing', {}],
  ])('answers 400 with the spec message to %s', async (_name, body) => {
    const admin = await signInAs(t, 'admin');
    const response = await updatePassword(admin.token, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: m.enterEmailAndPassword(), code: 'VALIDATION' });
  });

  it('refuses a weak password, saying what is needed, and leaves the old one', async () => {
    const admin = await signInAs(t, 'admin');
    const franchise = await createAccount(t.db, { role: 'franchise' });
    for (const [password, message] of [
      ['short', m.passwordTooShort({ min: 8 })],
      ['qwertyuiop', m.passwordTooCommon()],
    ]) {
      const response = await updatePassword(admin.token, { email: franchise.email, newPassword: password });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: message,
        code: 'VALIDATION',
        fieldErrors: { newPassword: [message] },
      });
    }
    const signIn = await postSignIn(t.app, {
      email: franchise.email,
      password: franchise.password,
      role: 'franchise',
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('answers 404 to an email no account uses', async () => {
    const admin = await signInAs(t, 'admin');
    const response = await updatePassword(admin.token, {
      email: 'nobody.at.all@example.in',
      newPassword: 'a-fresh-passphrase',
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: m.noAccountWithEmail(), code: 'NOT_FOUND' });
  });

  it.each(['city_dealer', 'franchise'] as const)('answers 403 to a %s', async (role) => {
    const caller = await signInAs(t, role);
    const response = await updatePassword(caller.token, {
      email: caller.account.email,
      newPassword: 'a-fresh-passphrase',
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('GET /api/get-admins', () => {
  it('answers the emails of the admins who can sign in, as the spec data array', async () => {
    const admin = await signInAs(t, 'admin');
    const disabled = await createAccount(t.db, { role: 'admin', disabled: true });
    const dealer = await createAccount(t.db, { role: 'city_dealer' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/get-admins',
      headers: authHeader(admin.token),
    });
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(Array.isArray(data)).toBe(true);
    expect(data).toContain(admin.account.email);
    expect(data).not.toContain(disabled.email);
    expect(data).not.toContain(dealer.email);
    expect([...data].sort((a: string, b: string) => a.localeCompare(b))).toEqual(data);
  });

  it('is for admins only: 401 without a token, 403 to other roles', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/get-admins' })).statusCode).toBe(401);
    for (const role of ['city_dealer', 'franchise'] as const) {
      const caller = await signInAs(t, role);
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/get-admins',
        headers: authHeader(caller.token),
      });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('PATCH /api/auth/me', () => {
  const updateProfile = (token: string, body: Record<string, unknown>) =>
    t.app.inject({ method: 'PATCH', url: '/api/auth/me', headers: authHeader(token), payload: body });

  it('stores the display name, which the current user then carries', async () => {
    const admin = await signInAs(t, 'admin', { displayName: 'Asha' });
    const response = await updateProfile(admin.token, { displayName: '  Asha Rao ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({ uid: admin.account.id, displayName: 'Asha Rao' });
    expect((await me(admin.token)).json().data.displayName).toBe('Asha Rao');
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, admin.account.id));
    expect(row!.displayName).toBe('Asha Rao');
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'profile'), eq(auditLog.resourceId, admin.account.id)));
    expect(audit).toMatchObject({ before: { displayName: 'Asha' }, after: { displayName: 'Asha Rao' } });
  });

  it('refuses an empty or too long name', async () => {
    const admin = await signInAs(t, 'admin');
    const empty = await updateProfile(admin.token, { displayName: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(`displayName: ${m.enterDisplayName()}`);
    expect((await updateProfile(admin.token, { displayName: 'x'.repeat(101) })).statusCode).toBe(400);
  });

  it.each(['city_dealer', 'franchise'] as const)('answers 403 to a %s', async (role) => {
    const caller = await signInAs(t, role);
    expect((await updateProfile(caller.token, { displayName: 'Me' })).statusCode).toBe(403);
  });
});
