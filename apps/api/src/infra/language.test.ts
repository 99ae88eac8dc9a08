import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { accounts, auditLog } from '../db/schema';
import { createAccount } from '../seed/factories';
import { authHeader, postSignIn, signInAs, useTestApp } from '../../test/test-app';
import { languageFromHeader } from './language';

const t = useTestApp();
const HINDI = { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.8' };

describe('languageFromHeader', () => {
  it('takes the supported language of highest weight, English otherwise', () => {
    expect(languageFromHeader(undefined)).toBe('en');
    expect(languageFromHeader('hi')).toBe('hi');
    expect(languageFromHeader('hi-IN')).toBe('hi');
    expect(languageFromHeader('fr-FR, hi;q=0.5, en;q=0.4')).toBe('hi');
    expect(languageFromHeader('en;q=0.9, hi;q=0.3')).toBe('en');
    expect(languageFromHeader('ta-IN, fr')).toBe('en');
    expect(languageFromHeader('hi;q=abc')).toBe('en');
    expect(languageFromHeader('hi;q=0')).toBe('en');
    expect(languageFromHeader(';;,,')).toBe('en');
  });
});

describe('answers in the language of the request', () => {
  it('says why a sign-in failed in Hindi, and in English without the header', async () => {
    const account = await createAccount(t.db, { role: 'admin' });
    const body = { email: account.email, password: 'not-the-password', role: 'admin' };
    const hindi = await postSignIn(t.app, body, { headers: HINDI });
    expect(hindi.statusCode).toBe(401);
    expect(hindi.json()).toEqual({ error: 'ईमेल या पासवर्ड गलत है।', code: 'UNAUTHORIZED' });
    const english = await postSignIn(t.app, body);
    expect(english.json()).toEqual({ error: m.invalidCredentials(), code: 'UNAUTHORIZED' });
    expect(m.invalidCredentials()).toBe('Incorrect email or password.');
  });

  it('names the role of the wrong tab in Hindi', async () => {
    const account = await createAccount(t.db, { role: 'franchise' });
    const response = await postSignIn(
      t.app,
      { email: account.email, password: account.password, role: 'city_dealer' },
      { headers: HINDI },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('यह खाता सिटी डीलर के रूप में साइन इन नहीं कर सकता। अपनी भूमिका का टैब चुनें।');
  });

  it('writes validation messages per field in Hindi', async () => {
    const response = await postSignIn(
      t.app,
      { email: 'not-an-email', password: '', role: 'admin' },
      { headers: HINDI },
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors).toEqual({
      email: ['मान्य ईमेल पता दर्ज करें।'],
      password: ['अपना पासवर्ड दर्ज करें।'],
    });
    expect(response.json().error).toBe('कुछ फ़ील्ड मान्य नहीं हैं।');
  });

  it('explains a body that is not JSON, a missing token and an unknown address in Hindi', async () => {
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      headers: { ...HINDI, 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().error).toBe('अनुरोध का मुख्य भाग मान्य JSON नहीं है।');

    const noToken = await t.app.inject({ method: 'GET', url: '/api/trips', headers: HINDI });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.json().error).toBe('जारी रखने के लिए कृपया साइन इन करें।');

    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: HINDI });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('नहीं मिला।');
  });

  it('keeps the language of each request when many run at once', async () => {
    const accounts = await Promise.all(
      Array.from({ length: 12 }, () => createAccount(t.db, { role: 'admin' })),
    );
    const answers = await Promise.all(
      accounts.map((account, i) =>
        postSignIn(
          t.app,
          { email: account.email, password: 'wrong-password-here', role: 'admin' },
          { headers: i % 2 ? HINDI : { 'accept-language': 'en-IN' } },
        ),
      ),
    );
    answers.forEach((answer, i) =>
      expect(answer.json().error).toBe(i % 2 ? 'ईमेल या पासवर्ड गलत है।' : 'Incorrect email or password.'),
    );
  });
});

describe('PUT /api/auth/me/language', () => {
  const putLanguage = (token: string, body: unknown) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/auth/me/language',
      headers: authHeader(token),
      payload: body as Record<string, unknown>,
    });

  it.each(['admin', 'city_dealer', 'franchise'] as const)(
    'remembers the language of a %s: /me and the next sign-in answer it',
    async (role) => {
      const caller = await signInAs(t, role);
      const me = () =>
        t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(caller.token) });
      expect((await me()).json().data.language).toBeNull();

      const response = await putLanguage(caller.token, { language: 'hi' });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatchObject({ uid: caller.account.id, language: 'hi' });
      expect((await me()).json().data.language).toBe('hi');

      const again = await postSignIn(t.app, {
        email: caller.account.email,
        password: caller.account.password,
        role,
      });
      expect(again.json().data.language).toBe('hi');

      const [audit] = await t.db.select().from(auditLog).where(eq(auditLog.resourceId, caller.account.id));
      expect(audit).toMatchObject({
        resource: 'profile',
        before: { language: null },
        after: { language: 'hi' },
      });
    },
  );

  it('refuses a language the console does not speak, and changes nothing', async () => {
    const caller = await signInAs(t, 'franchise');
    const response = await putLanguage(caller.token, { language: 'fr' });
    expect(response.statusCode).toBe(400);
    expect(response.json().fieldErrors.language).toEqual(['Must be one of: en, hi.']);
    expect((await putLanguage(caller.token, {})).statusCode).toBe(400);
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, caller.account.id));
    expect(row!.language).toBeNull();
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({
      method: 'PUT',
      url: '/api/auth/me/language',
      payload: { language: 'hi' },
    });
    expect(response.statusCode).toBe(401);
  });
});
