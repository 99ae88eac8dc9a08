import type { Page } from '@playwright/test';
import { ACCOUNTS, DEMO_PASSWORD, expect, networkQuiet, test } from './fixtures';
import { inHindi, untranslated } from './texts';

// Every signed-in screen of each role is read in Hindi by the accessibility walk at a phone's width
// (accessibility.spec.ts), with no text of the English catalogue left on it.

test.describe('the language switch', () => {
  test('offers English and हिन्दी on the sign-in screen; the browser remembers the choice', async ({
    page,
  }) => {
    await page.goto('/admin');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('lang', 'en');
    const languages = page.getByRole('group', { name: 'Language' });
    await expect(languages.getByRole('button', { name: 'English' })).toHaveAttribute('aria-pressed', 'true');
    await languages.getByRole('button', { name: 'हिन्दी' }).click();

    await expect(html).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { name: 'एडमिन साइन इन' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'साइन इन करें', exact: true })).toBeVisible();
    await expect(page.getByRole('group', { name: 'भाषा' })).toBeVisible();

    // The server answers in the language of the screen.
    await page.getByLabel(/^ईमेल/).fill(ACCOUNTS.admin.email);
    await page.getByRole('textbox', { name: /^पासवर्ड/ }).fill('not-the-password');
    await page.getByRole('button', { name: 'साइन इन करें', exact: true }).click();
    await expect(page.getByText('ईमेल या पासवर्ड गलत है।')).toBeVisible();

    await page.reload();
    await expect(html).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { name: 'एडमिन साइन इन' })).toBeVisible();
    await page.getByRole('group', { name: 'भाषा' }).getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
    await expect(html).toHaveAttribute('lang', 'en');
  });

  test('the account remembers the language: a sign-in in another browser opens in it', async ({
    page,
    browser,
    request,
  }) => {
    // An account of its own: the demo accounts are shared by tests running at the same time.
    const admin = await request.post('/api/auth/sign-in', {
      data: { email: ACCOUNTS.admin.email, password: DEMO_PASSWORD, role: 'admin' },
    });
    const token = ((await admin.json()) as { data: { idToken: string } }).data.idToken;
    const email = `language.${Date.now()}@bookmyetaxi.test`;
    const password = 'a-dealer-passphrase-2026';
    const created = await request.post('/api/city_dealer/create', {
      headers: { authorization: `Bearer ${token}` },
      data: { name: 'Bhasha Motors', email, state: 'bihar', password },
    });
    expect(created.status(), await created.text()).toBe(201);

    const signIn = async (target: Page) => {
      await target.goto('/admin');
      await target.getByRole('tab', { name: /City Dealer|सिटी डीलर/ }).click();
      await target.getByLabel(/^(Email|ईमेल)/).fill(email);
      await target.getByLabel(/^(Password|पासवर्ड)/).fill(password);
      await target.getByRole('button', { name: /^(Sign In|साइन इन करें)$/ }).click();
      await expect(target).toHaveURL(/\/welcome$/);
    };
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Welcome Bhasha Motors to Book-My-ETaxi' })).toBeVisible();
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expect(
      page.getByRole('heading', { name: 'Book-My-ETaxi में आपका स्वागत है, Bhasha Motors' }),
    ).toBeVisible();
    await expect(page.getByRole('navigation').getByRole('link').first()).not.toHaveText('Drivers');

    // Another browser, English until the account's choice arrives with the sign-in.
    const other = await browser.newContext();
    const elsewhere = await other.newPage();
    await signIn(elsewhere);
    await expect(elsewhere.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(
      elsewhere.getByRole('heading', { name: 'Book-My-ETaxi में आपका स्वागत है, Bhasha Motors' }),
    ).toBeVisible();
    await other.close();
  });
});

test('the sign-in and reset screens show no English text in Hindi', async ({ page }) => {
  await inHindi(page);
  for (const path of ['/admin', '/reset-password-admin', '/reset-password']) {
    await page.goto(path);
    await expect(page.getByRole('button').first()).toBeVisible();
    await networkQuiet(page);
    expect(await untranslated(page), path).toEqual([]);
  }
});
