import { randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp, type App } from '../../app';
import type { Db } from '../../db/client';
import { accounts, passwordResetTokens } from '../../db/schema';
import { createAccount } from '../../seed/factories';
import { authHeader, postSignIn, TEST_CONFIG, testAppOptions, uniqueAddress } from '../../../test/test-app';
import { getTestDatabase } from '../../../test/test-database';
import { hashResetToken, RESET_LINK_TTL_MS } from './password-routes';
import { resetLinkIn, startMailReceiver } from '../../../test/mail-receiver';

const APP_URL = 'http://console.test:3999';
let app: App;
let db: Db;
let receiver: Awaited<ReturnType<typeof startMailReceiver>>;

beforeAll(async () => {
  receiver = await startMailReceiver();
  db = (await getTestDatabase()).db;
  // The app's mailer points at the receiver; buildApp passes `mail` on to the auth routes.
  const config = {
    ...TEST_CONFIG,
    mail: { smtpUrl: receiver.url, from: 'Book-My-ETaxi <no-reply@test.bookmyetaxi.in>', appUrl: APP_URL },
  };
  app = await buildApp({ ...testAppOptions(db), config });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

const requestReset = (email: string, remoteAddress = uniqueAddress()) =>
  app.inject({ method: 'POST', url: '/api/auth/password-reset', payload: { email }, remoteAddress });

const confirmReset = (token: string, password: string) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/password-reset/confirm',
    payload: { token, password },
    remoteAddress: uniqueAddress(),
  });

const me = (token: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

async function signIn(account: { email: string; role: string }, password: string) {
  return postSignIn(app, { email: account.email, password, role: account.role });
}

/** Asks for a link and reads it from the mail the receiver got. */
async function mailedLink(email: string) {
  const already = receiver.mailsTo(email).length;
  const response = await requestReset(email);
  expect(response.statusCode).toBe(202);
  const mail = await receiver.waitForMail(email, { already });
  return { mail, ...resetLinkIn(mail) };
}

const accepted = { data: { message: m.resetRequested() } };
const invalidLink = { error: m.resetLinkInvalid(), code: 'VALIDATION' };

describe('POST /api/auth/password-reset', () => {
  it('mails a link to this app with a single-use token valid 30 minutes, stored only as a hash', async () => {
    const account = await createAccount(db, { role: 'admin', displayName: 'Meera Iyer' });
    const before = Date.now();
    const { mail, link, token } = await mailedLink(account.email.toUpperCase());

    expect(mail.to).toEqual([account.email]);
    expect(mail.subject).toBe('Reset your Book-My-ETaxi password');
    expect(mail.text).toContain('Hello Meera Iyer,');
    expect(mail.text).toContain('within 30 minutes');
    expect(link).toBe(`${APP_URL}/reset-password?token=${token}`);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);

    const rows = await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.accountId, account.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashResetToken(token));
    expect(rows[0]!.tokenHash).not.toContain(token);
    expect(rows[0]!.usedAt).toBeNull();
    const ttl = rows[0]!.expiresAt.getTime() - before;
    expect(ttl).toBeGreaterThan(RESET_LINK_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(RESET_LINK_TTL_MS + 60_000);
  });

  it('writes the mail in the language the account chose, else in the language of the request', async () => {
    const chose = await createAccount(db, { role: 'franchise', displayName: 'Sunita Devi' });
    await db.update(accounts).set({ language: 'hi' }).where(eq(accounts.id, chose.id));
    const inHindi = await mailedLink(chose.email);
    expect(inHindi.mail.subject).toBe('अपना Book-My-ETaxi पासवर्ड रीसेट करें');
    expect(inHindi.mail.text).toContain('नमस्ते Sunita Devi,');
    expect(inHindi.mail.text).toContain(inHindi.link);

    const never = await createAccount(db, { role: 'city_dealer' });
    const already = receiver.mailsTo(never.email).length;
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: never.email },
      headers: { 'accept-language': 'hi' },
      remoteAddress: uniqueAddress(),
    });
    expect(response.json()).toEqual({
      data: { message: 'यदि कोई खाता इस ईमेल पते का उपयोग करता है, तो पासवर्ड रीसेट लिंक भेजा जा रहा है।' },
    });
    const mail = await receiver.waitForMail(never.email, { already });
    expect(mail.subject).toBe('अपना Book-My-ETaxi पासवर्ड रीसेट करें');
  });

  it('answers an unknown email exactly as a known one, and mails nothing', async () => {
    const account = await createAccount(db, { role: 'city_dealer' });
    const unknown = `nobody.${randomUUID()}@example.in`;
    const already = receiver.mailsTo(account.email).length;

    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(account.email);

    expect(forUnknown.statusCode).toBe(202);
    expect(forKnown.statusCode).toBe(forUnknown.statusCode);
    expect(forUnknown.json()).toEqual(accepted);
    expect(forKnown.body).toBe(forUnknown.body);
    expect(forKnown.headers['content-type']).toBe(forUnknown.headers['content-type']);

    // The known account's mail arrives; by then the unknown address has had every chance.
    await receiver.waitForMail(account.email, { already });
    expect(receiver.mailsTo(unknown)).toHaveLength(0);
  });

  it('mails nothing to a disabled account, with the same answer', async () => {
    const account = await createAccount(db, { role: 'franchise', disabled: true });
    const response = await requestReset(account.email);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual(accepted);
    const tokens = await db
      .select()
      .from(passwordResetTokens)
      .where(eq(passwordResetTokens.accountId, account.id));
    expect(tokens).toHaveLength(0);
  });

  it('refuses an invalid email with 400', async () => {
    const response = await requestReset('not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'VALIDATION',
      error: 'email: Enter a valid email address.',
    });
  });

  it("never refuses a request; others' requests send at most 5 mails an hour to one email", async () => {
    const account = await createAccount(db, { role: 'admin' });
    const unknown = `nobody.${randomUUID()}@example.in`;
    const answers = new Set<string>();
    for (const email of [account.email, unknown]) {
      for (let attempt = 1; attempt <= 8; attempt++) {
        const response = await requestReset(attempt % 2 ? email : email.toUpperCase());
        expect(response.statusCode, `attempt ${attempt}`).toBe(202);
        expect(response.headers['retry-after']).toBeUndefined();
        answers.add(response.body);
      }
    }
    expect([...answers]).toEqual([JSON.stringify({ data: { message: m.resetRequested() } })]);
    await receiver.waitForMail(account.email, { already: 4 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.mailsTo(account.email)).toHaveLength(5);
  });

  it("always sends a working link to a request from the owner's own browser (its device cookie)", async () => {
    const account = await createAccount(db, { role: 'franchise' });
    const signedIn = await signIn(account, account.password);
    const cookie = signedIn.cookies.find((each) => each.name === 'bmet_device')!;
    // Someone else uses up the mails of the hour.
    for (let attempt = 1; attempt <= 7; attempt++) await requestReset(account.email);
    await receiver.waitForMail(account.email, { already: 4 });

    const already = receiver.mailsTo(account.email).length;
    const own = await app.inject({
      method: 'POST',
      url: '/api/auth/password-reset',
      payload: { email: account.email },
      remoteAddress: uniqueAddress(),
      cookies: { bmet_device: cookie.value },
    });
    expect(own.statusCode).toBe(202);
    const mail = await receiver.waitForMail(account.email, { already });
    const { token } = resetLinkIn(mail);
    expect((await confirmReset(token, 'owner-chose-this-one')).statusCode).toBe(200);
    expect((await signIn(account, 'owner-chose-this-one')).statusCode).toBe(200);
  });

  it('answers the 21st request from one address as any other, without a mail', async () => {
    const address = uniqueAddress();
    for (let attempt = 1; attempt <= 20; attempt++) {
      const response = await requestReset(`someone.${attempt}.${randomUUID()}@example.in`, address);
      expect(response.statusCode, `attempt ${attempt}`).toBe(202);
    }
    const account = await createAccount(db, { role: 'admin' });
    expect((await requestReset(account.email, address)).statusCode).toBe(202);
    // From another address, the mail goes out.
    const { mail } = await mailedLink(account.email);
    expect(mail).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.mailsTo(account.email)).toHaveLength(1);
  });
});

describe('POST /api/auth/password-reset/confirm', () => {
  it('sets the password, ends every old session and signs the user in fresh; the link works once', async () => {
    const account = await createAccount(db, { role: 'city_dealer' });
    const old = (await signIn(account, account.password)).json().data.idToken as string;
    expect((await me(old)).statusCode).toBe(200);
    const { token } = await mailedLink(account.email);

    const response = await confirmReset(token, 'a-brand-new-passphrase');
    expect(response.statusCode).toBe(200);
    const { data } = response.json();
    expect(data).toEqual({
      idToken: expect.any(String),
      expirationTime: expect.any(Number),
      role: 'city_dealer',
      language: null,
    });

    expect((await me(old)).statusCode).toBe(401);
    const fresh = await me(data.idToken);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().data.uid).toBe(account.id);
    expect((await signIn(account, account.password)).statusCode).toBe(401);
    expect((await signIn(account, 'a-brand-new-passphrase')).statusCode).toBe(200);

    const again = await confirmReset(token, 'yet-another-passphrase');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual(invalidLink);
    expect((await signIn(account, 'a-brand-new-passphrase')).statusCode).toBe(200);
  });

  it('refuses an expired link', async () => {
    const account = await createAccount(db, { role: 'admin' });
    const { token } = await mailedLink(account.email);
    await db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.tokenHash, hashResetToken(token)));

    const response = await confirmReset(token, 'a-brand-new-passphrase');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidLink);
    expect((await signIn(account, account.password)).statusCode).toBe(200);
  });

  it('keeps the link usable when the new password breaks the rules, and says what is needed', async () => {
    const account = await createAccount(db, { role: 'admin' });
    const { token } = await mailedLink(account.email);

    const short = await confirmReset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({
      error: m.passwordTooShort({ min: 8 }),
      code: 'VALIDATION',
      fieldErrors: { password: [m.passwordTooShort({ min: 8 })] },
    });
    const common = await confirmReset(token, 'password123');
    expect(common.statusCode).toBe(400);
    expect(common.json().error).toBe(m.passwordTooCommon());

    expect((await confirmReset(token, 'a-brand-new-passphrase')).statusCode).toBe(200);
  });

  it('voids the older links of the account once one of them is used', async () => {
    const account = await createAccount(db, { role: 'franchise' });
    const first = await mailedLink(account.email);
    const second = await mailedLink(account.email);
    expect(first.token).not.toBe(second.token);

    expect((await confirmReset(second.token, 'a-brand-new-passphrase')).statusCode).toBe(200);
    const older = await confirmReset(first.token, 'another-new-passphrase');
    expect(older.statusCode).toBe(400);
    expect(older.json()).toEqual(invalidLink);
  });

  it('refuses the link of an account disabled since it was sent', async () => {
    const account = await createAccount(db, { role: 'city_dealer' });
    const { token } = await mailedLink(account.email);
    await db.update(accounts).set({ disabled: true }).where(eq(accounts.id, account.id));
    const response = await confirmReset(token, 'a-brand-new-passphrase');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(invalidLink);
    const unused = await db
      .select()
      .from(passwordResetTokens)
      .where(and(eq(passwordResetTokens.accountId, account.id), isNull(passwordResetTokens.usedAt)));
    expect(unused).toHaveLength(1);
  });

  it.each([
    ['a made-up token', 'x'.repeat(43)],
    ['a malformed token', 'not a token'],
    ['an empty token', ''],
  ])('refuses %s with the same message', async (_name, token) => {
    const response = await confirmReset(token, 'a-brand-new-passphrase');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: m.resetLinkInvalid(), code: 'VALIDATION' });
  });

  it('lets a user locked out by failed sign-ins at an address back in there', async () => {
    const account = await createAccount(db, { role: 'admin' });
    const address = uniqueAddress();
    const from = (password: string) =>
      postSignIn(app, { email: account.email, password, role: account.role }, { remoteAddress: address });
    for (let attempt = 0; attempt < 5; attempt++) await from('wrong-password-here');
    expect((await from(account.password)).statusCode).toBe(429);
    const { token } = await mailedLink(account.email);
    expect((await confirmReset(token, 'a-brand-new-passphrase')).statusCode).toBe(200);
    expect((await from('a-brand-new-passphrase')).statusCode).toBe(200);
  });
});
