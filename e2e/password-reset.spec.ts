import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { e2eFolder } from '../scripts/e2e-folder.mjs';
import { DEMO_PASSWORD, expect, test, type Session } from './fixtures';

/**
 * Password reset by email. The e2e server's mail receiver (scripts/e2e-server.mjs) writes each
 * mail it gets to test-results/e2e-mail/, named after its recipient: the tests open the link the
 * way a user would, from the mail.
 */

const MAIL_DIR = join(e2eFolder(process.env.E2E_PORT ?? '3100'), 'e2e-mail');
const STRONG = 'a-strong-e2e-passphrase';

const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

function mailsTo(address: string): string[] {
  if (!existsSync(MAIL_DIR)) return [];
  const marker = `-${address.toLowerCase()}-`;
  return readdirSync(MAIL_DIR)
    .filter((name) => name.includes(marker))
    .sort()
    .map((name) => readFileSync(join(MAIL_DIR, name), 'latin1'));
}

/** The reset link in a mail (its text part may be quoted-printable). */
function resetLinkIn(raw: string): string {
  const text = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const match = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(text);
  if (!match) throw new Error(`No reset link in:\n${text}`);
  return match[0];
}

async function waitForResetLink(address: string): Promise<string> {
  let mails: string[] = [];
  await expect
    .poll(() => (mails = mailsTo(address)).length, { message: `a mail to ${address}`, timeout: 20_000 })
    .toBeGreaterThan(0);
  return resetLinkIn(mails.at(-1)!);
}

/** A city dealer of its own, made through the API by the demo admin. */
async function createDealer(request: APIRequestContext, name: string, email: string) {
  const signIn = await request.post('/api/auth/sign-in', {
    data: { email: 'admin@bookmyetaxi.test', password: DEMO_PASSWORD, role: 'admin' },
  });
  const admin = ((await signIn.json()) as { data: Session }).data;
  const response = await request.post('/api/city_dealer/create', {
    headers: { authorization: `Bearer ${admin.idToken}` },
    data: { name, email, state: 'punjab', password: STRONG },
  });
  expect(response.status(), await response.text()).toBe(201);
}

test.describe('reset from the link in the mail', () => {
  test('asks for a link, opens it, sets a new password twice and lands signed in; the link works once', async ({
    page,
    request,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const name = `Ludhiana Partners ${tag}`;
    const email = `reset.${tag}@e2e.bookmyetaxi.test`;
    await createDealer(request, name, email);

    await page.goto('/reset-password-admin');
    await expect(page.getByRole('heading', { name: 'Reset Admin Password' })).toBeVisible();
    // Anonymous visitors type an email: the admins' emails are never listed to them.
    await expect(page.getByLabel('Select Email:')).toHaveCount(0);
    await page.getByRole('button', { name: 'Send Password Reset Link' }).click();
    await expect(notice(page, 'Please enter your email to reset the password')).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send Password Reset Link' }).click();
    await expect(notice(page, 'Password reset email sent. Please check your inbox.')).toBeVisible();

    const link = await waitForResetLink(email);
    expect(new URL(link).origin).toBe(new URL(page.url()).origin);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('a-reset-e2e-passphrase');
    await page.getByLabel('Repeat the new password').fill('something-else-entirely');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'The two passwords do not match.' }),
    ).toBeVisible();

    await page.getByLabel('Repeat the new password').fill('a-reset-e2e-passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByRole('heading', { name: `Welcome ${name} to Book-My-ETaxi` })).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('currentClaim'))).toBe('city_dealer');

    const withNew = await request.post('/api/auth/sign-in', {
      data: { email, password: 'a-reset-e2e-passphrase', role: 'city_dealer' },
    });
    expect(withNew.status()).toBe(200);

    // The same link a second time.
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another-e2e-passphrase');
    await page.getByLabel('Repeat the new password').fill('another-e2e-passphrase');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expect(
      page.getByRole('alert').filter({
        hasText: 'This password reset link is invalid, already used or expired. Ask for a new one.',
      }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  });

  test('the page without a token says where it comes from', async ({ page }) => {
    await page.goto('/reset-password');
    await expect(
      page.getByText('This page opens from the link in a password reset email. Ask for a new one.'),
    ).toBeVisible();
  });

  test('a failure shows the spec message with the reason', async ({ page }) => {
    await page.goto('/reset-password-admin');
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: 'Send Password Reset Link' }).click();
    await expect(
      notice(page, 'Failed to send password reset email: email: Enter a valid email address.'),
    ).toBeVisible();
  });
});

test.describe('as a signed-in admin', () => {
  test.use({ role: 'admin' });

  test('chooses from the admin emails and sends the link', async ({ page }) => {
    await page.goto('/reset-password-admin');
    const select = page.getByLabel('Select Email:');
    await expect(select).toBeVisible();
    await expect(select.locator('option')).toContainText([
      'admin@bookmyetaxi.test',
      'ops.admin@bookmyetaxi.test',
    ]);
    await page.getByRole('button', { name: 'Send Password Reset Link' }).click();
    await expect(notice(page, 'Please select an email.')).toBeVisible();

    await select.selectOption('ops.admin@bookmyetaxi.test');
    await page.getByRole('button', { name: 'Send Password Reset Link' }).click();
    await expect(notice(page, 'Password reset email sent. Please check your inbox.')).toBeVisible();
    await waitForResetLink('ops.admin@bookmyetaxi.test');
  });
});
