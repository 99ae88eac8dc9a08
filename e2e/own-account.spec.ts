import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, signInThroughApi, test } from './fixtures';

/**
 * Account settings (decision 033): a franchise changes its own display name and password from the
 * account menu. The test makes a franchise of its own: other tests sign in as the demo accounts.
 */

const FIRST_PASSWORD = 'a-franchise-first-passphrase';
const NEW_PASSWORD = 'the-franchise-chose-another';

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Franchise', exact: true }).click();
  await page.getByLabel(/^Email/).fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/welcome$/);
}

test('a franchise changes its own name and password from the account menu', async ({ page, request }) => {
  const tag = randomUUID().slice(0, 8);
  const email = `own.${tag}@e2e.bookmyetaxi.test`;
  const admin = await signInThroughApi(request, 'admin');
  const created = await request.post('/api/franchise/create', {
    headers: authHeader(admin),
    data: { name: `Pune Own Cabs ${tag}`, email, state: 'maharashtra', password: FIRST_PASSWORD },
  });
  expect(created.status(), await created.text()).toBe(201);

  await signIn(page, email, FIRST_PASSWORD);
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: `Pune Own Cabs ${tag}, account menu` })).toBeVisible();

  // By keyboard: the menu, its item, and the dialog with the name field first.
  await header.getByRole('button', { name: /account menu/ }).focus();
  await page.keyboard.press('Enter');
  const item = page.getByRole('menuitem', { name: 'Account settings' });
  await expect(item).toBeVisible();
  await item.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Account settings' });
  const name = dialog.getByLabel('Display name');
  await expect(name).toBeFocused();
  await expect(name).toHaveValue(`Pune Own Cabs ${tag}`);
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);

  await name.fill(`Pune Renamed Cabs ${tag}`);
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText('Your display name has been saved.');
  await expect(header.getByRole('button', { name: `Pune Renamed Cabs ${tag}, account menu` })).toBeVisible();

  const current = dialog.getByLabel('Current password');
  await current.fill('not-my-password-at-all');
  await dialog.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
  await dialog.getByLabel('Confirm new password').fill(NEW_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(current).toHaveAccessibleDescription('This is not your current password.');
  await expect(current).toBeFocused();
  expect(await seriousViolations(page, ['[role="dialog"]'])).toEqual([]);

  await current.fill(FIRST_PASSWORD);
  await dialog.getByRole('button', { name: 'Change password' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Your password has been changed.' })).toHaveText(
    'Your password has been changed. Your other devices are signed out.',
  );
  await expect(current).toHaveValue('');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Still signed in here; the new password signs in after a logout, the old one no more.
  await header.getByRole('button', { name: /account menu/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/landingPage\/index\.html$/);
  const old = await request.post('/api/auth/sign-in', {
    data: { email, password: FIRST_PASSWORD, role: 'franchise' },
  });
  expect(old.status()).toBe(401);
  await signIn(page, email, NEW_PASSWORD);
  await expect(
    page.getByRole('heading', { name: `Welcome Pune Renamed Cabs ${tag} to Book-My-ETaxi` }),
  ).toBeVisible();
});
