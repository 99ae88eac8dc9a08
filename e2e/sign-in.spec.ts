import { ACCOUNTS, DEMO_PASSWORD, ROLES, expect, readSessionStorage, test } from './fixtures';

test.describe('sign-in screen', () => {
  test.beforeEach(async ({ page }) => {
    await page.goto('/admin');
  });

  test('has three tabs with Admin chosen first', async ({ page }) => {
    await expect(page.getByRole('tab')).toHaveText(['Admin', 'City Dealer', 'Franchise']);
    await expect(page.getByRole('tab', { name: 'Admin', exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
    await expect(page.getByLabel(/^Email/)).toBeVisible();
    await expect(page.getByLabel(/^Password/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  });

  test('names the chosen role in the heading and offers the reset link only to admins', async ({ page }) => {
    const forgot = page.getByRole('link', { name: 'Forgot Password? Click to reset' });
    for (const role of ROLES) {
      const tab = ACCOUNTS[role].tab;
      await test.step(tab, async () => {
        await page.getByRole('tab', { name: tab, exact: true }).click();
        await expect(page.getByRole('heading', { name: `${tab} Sign In` })).toBeVisible();
        if (role === 'admin') await expect(forgot).toBeVisible();
        else await expect(forgot).toHaveCount(0);
      });
    }
  });

  test('the reset link leads to the admin password reset', async ({ page }) => {
    await page.getByRole('link', { name: 'Forgot Password? Click to reset' }).click();
    await expect(page).toHaveURL(/\/reset-password-admin$/);
    await expect(page.getByRole('heading', { name: 'Reset Admin Password' })).toBeVisible();
  });

  for (const role of ROLES) {
    const account = ACCOUNTS[role];
    test(`signs in as ${account.tab} and greets by name`, async ({ page }) => {
      await page.getByRole('tab', { name: account.tab, exact: true }).click();
      await page.getByLabel(/^Email/).fill(account.email);
      await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign In', exact: true }).click();

      await expect(page).toHaveURL(/\/welcome$/);
      await expect(
        page.getByRole('heading', { name: `Welcome ${account.displayName} to Book-My-ETaxi` }),
      ).toBeVisible();
      const stored = await readSessionStorage(page);
      expect(stored.idToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(Number(stored.expirationTime)).toBeGreaterThan(Date.now());
      expect(stored.currentClaim).toBe(role);
    });
  }

  test('a wrong password shows the message and stays on the screen', async ({ page }) => {
    // The second admin, so that this deliberate failure never counts against the main demo account.
    await page.getByLabel(/^Email/).fill('ops.admin@bookmyetaxi.test');
    await page.getByLabel(/^Password/).fill('not-the-password-2026');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
    await expect(page).toHaveURL(/\/admin$/);
    expect((await readSessionStorage(page)).idToken).toBeNull();
  });

  test('the right password on the wrong tab names the tab', async ({ page }) => {
    await page.getByRole('tab', { name: 'Franchise', exact: true }).click();
    await page.getByLabel(/^Email/).fill(ACCOUNTS.city_dealer.email);
    await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();

    await expect(page.getByRole('alert')).toHaveText(
      'This account cannot sign in as Franchise. Choose the tab of your role.',
    );
    await expect(page).toHaveURL(/\/admin$/);
    expect((await readSessionStorage(page)).idToken).toBeNull();
  });

  test('the password can be shown and hidden', async ({ page }) => {
    const password = page.getByLabel(/^Password/);
    await password.fill('secret-words');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show or hide the password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    // Named in the language of the moment.
    await page.getByRole('button', { name: 'हिन्दी' }).click();
    await expect(page.getByRole('button', { name: 'पासवर्ड दिखाएँ या छिपाएँ' })).toBeVisible();
  });
});

test.describe('signed in', () => {
  test.use({ role: 'admin' });

  test('the sign-in screen sends a signed-in user to the welcome screen', async ({ page }) => {
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByRole('heading', { name: /^Welcome .+ to Book-My-ETaxi$/ })).toBeVisible();
  });
});
