import { randomUUID } from 'node:crypto';
import type { APIRequestContext, CDPSession, Page } from '@playwright/test';
// The API's TOTP library (a dependency of apps/api, installed at the root by the workspaces).
import { generate } from 'otplib';
import { seriousViolations } from './axe';
import { authHeader, expect, readSessionStorage, signInThroughApi, test, type Session } from './fixtures';

/**
 * The second factor: an authenticator app (codes computed here with the API's own TOTP library),
 * passkeys (Chromium's virtual authenticator, through the DevTools protocol) and recovery codes;
 * the signed-in user's screen, the sign-in's second step, and an admin's reset. Every test makes
 * city dealers of its own: enrolling a shared demo account would put a second step in front of
 * every other test that signs in with it.
 */

const PASSWORD = 'a-second-factor-e2e-passphrase';

type Account = { name: string; email: string };

/** A city dealer of its own, made through the API by the demo admin. */
async function createDealer(request: APIRequestContext): Promise<Account> {
  const tag = randomUUID().slice(0, 8);
  const account = { name: `Second Factor Motors ${tag}`, email: `sf.${tag}@e2e.bookmyetaxi.test` };
  const admin = await signInThroughApi(request, 'admin');
  const response = await request.post('/api/city_dealer/create', {
    headers: authHeader(admin),
    data: { ...account, state: 'kerala', password: PASSWORD },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

/** The password step on the City Dealer tab. */
async function typePassword(page: Page, account: Account) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'City Dealer', exact: true }).click();
  await page.getByLabel(/^Email/).fill(account.email);
  await page.getByLabel(/^Password/).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

async function expectWelcome(page: Page, account: Account) {
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(page.getByRole('heading', { name: `Welcome ${account.name} to Book-My-ETaxi` })).toBeVisible();
  expect((await readSessionStorage(page)).currentClaim).toBe('city_dealer');
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: /account menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/landingPage\/index\.html$/);
}

/** The second-factor screen, reached the way every role reaches it: the account menu. */
async function openSecondFactor(page: Page) {
  await page.getByRole('button', { name: /account menu$/ }).click();
  await page.getByRole('menuitem', { name: 'Second factor' }).click();
  await expect(page.getByRole('heading', { name: 'Second factor', exact: true })).toBeVisible();
}

/**
 * A code of the app for the next 30-second step: a code is taken once per step, so one computed
 * for now might be the step the enrolment (or an earlier sign-in) just used. The server accepts
 * codes 30 seconds either side of its clock.
 */
const nextCode = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

/** The recovery codes the dialog shows once; saved, the dialog closes. */
async function keepRecoveryCodes(page: Page): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name: 'Your recovery codes' });
  await expect(dialog.getByRole('listitem')).toHaveCount(10);
  const codes = await dialog.getByRole('listitem').allTextContents();
  await dialog.getByRole('button', { name: 'I have saved the codes' }).click();
  await expect(dialog).toBeHidden();
  return codes.map((code) => code.trim());
}

async function addVirtualAuthenticator(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}

/** axe on the page as it rests: the pointer away from the button it last clicked (a hovered button is paler). */
async function violationsAtRest(page: Page) {
  await page.mouse.move(0, 0);
  return seriousViolations(page);
}

test('enrols an authenticator app, then signs in with a code and with a recovery code', async ({
  page,
  request,
}) => {
  const account = await createDealer(request);
  await typePassword(page, account);
  await expectWelcome(page, account);

  await openSecondFactor(page);
  const app = page.getByRole('region', { name: 'Authenticator app' });
  await expect(app.getByText('Off', { exact: true })).toBeVisible();
  await app.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(app.getByRole('img', { name: 'QR code to scan with an authenticator app' })).toBeVisible();
  const secret = (await app.getByTestId('totp-secret').textContent())!.replace(/\s+/g, '');
  await app.getByLabel(/^Code from the authenticator app/).fill(await generate({ secret }));
  await app.getByRole('button', { name: 'Turn on' }).click();
  const codes = await keepRecoveryCodes(page);
  expect(codes[0]).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
  await expect(app.getByText('On', { exact: true })).toBeVisible();
  await expect(page.getByText('Recovery codes left: 10')).toBeVisible();

  await signOut(page);
  await typePassword(page, account);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  expect((await readSessionStorage(page)).idToken).toBeNull();
  // A wrong code stays on the step (a 401 here ends nothing).
  await page.getByLabel(/^Code from the authenticator app/).fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(
    page.getByText('That code is not right. Try the newest code, or a recovery code.'),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByLabel(/^Code from the authenticator app/).fill(await nextCode(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectWelcome(page, account);

  await signOut(page);
  await typePassword(page, account);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel(/^Recovery code/).fill(codes[0]!.toUpperCase());
  await page.getByRole('button', { name: 'Verify' }).click();
  await expectWelcome(page, account);
  await openSecondFactor(page);
  await expect(page.getByText('Recovery codes left: 9')).toBeVisible();

  // A used recovery code does not work twice.
  await signOut(page);
  await typePassword(page, account);
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel(/^Recovery code/).fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('That recovery code is not right, or it was used already.')).toBeVisible();
});

test('adds a passkey, then signs in with the password and the passkey, and with the passkey alone', async ({
  page,
  request,
}) => {
  await addVirtualAuthenticator(page);
  const account = await createDealer(request);
  await typePassword(page, account);
  await expectWelcome(page, account);

  await openSecondFactor(page);
  const passkeys = page.getByRole('region', { name: 'Passkeys' });
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
  await passkeys.getByLabel('Name of the passkey (optional)').fill('E2E laptop');
  await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
  // The account's first method: its recovery codes come with it.
  await keepRecoveryCodes(page);
  await expect(passkeys.getByText('E2E laptop')).toBeVisible();
  await expect(passkeys.getByText('Not used yet')).toBeVisible();
  await expect(passkeys.getByText(/^Added \d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} [ap]m$/)).toBeVisible();

  await signOut(page);
  await typePassword(page, account);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a passkey' }).click();
  await expectWelcome(page, account);

  await signOut(page);
  await page.goto('/admin');
  // On another role's tab the passkey is refused, as a password would be.
  await page.getByRole('tab', { name: 'Franchise', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'This account cannot sign in as Franchise. Choose the tab of your role.',
  );
  await page.getByRole('tab', { name: 'City Dealer', exact: true }).click();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expectWelcome(page, account);

  await openSecondFactor(page);
  await expect(passkeys.getByText(/^Last used \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await passkeys.getByRole('button', { name: 'Remove E2E laptop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove the passkey E2E laptop?' });
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(passkeys.getByText('No passkeys yet.')).toBeVisible();
});

/** Sets up an authenticator app for an account through the API; answers its secret. */
async function enrolThroughApi(request: APIRequestContext, account: Account): Promise<string> {
  const signIn = await request.post('/api/auth/sign-in', {
    data: { email: account.email, password: PASSWORD, role: 'city_dealer' },
  });
  const session = ((await signIn.json()) as { data: Session }).data;
  const started = await request.post('/api/auth/second-factor/totp', {
    headers: authHeader(session),
    data: {},
  });
  expect(started.status(), await started.text()).toBe(200);
  const { secret } = ((await started.json()) as { data: { secret: string } }).data;
  const confirmed = await request.post('/api/auth/second-factor/totp/confirm', {
    headers: authHeader(session),
    data: { code: await generate({ secret }) },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return secret;
}

test.describe('as an admin', () => {
  test.use({ role: 'admin' });

  test("resets another account's second factor after a confirmation", async ({ page, request }) => {
    const account = await createDealer(request);
    await enrolThroughApi(request, account);
    const before = await request.post('/api/auth/sign-in', {
      data: { email: account.email, password: PASSWORD, role: 'city_dealer' },
    });
    expect(((await before.json()) as { data: object }).data).toHaveProperty('secondFactor');

    await page.goto('/update-password');
    await page.getByLabel('Email', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Reset second factor' }).click();
    const dialog = page.getByRole('dialog', { name: `Reset the second factor of ${account.email}?` });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Reset second factor' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'was cleared' })).toHaveText(
      `The second factor of ${account.email} was cleared. They set up a new one at their next sign-in.`,
    );

    // Its password alone signs in again.
    const after = await request.post('/api/auth/sign-in', {
      data: { email: account.email, password: PASSWORD, role: 'city_dealer' },
    });
    expect(((await after.json()) as { data: object }).data).toHaveProperty('idToken');
  });

  test('the profile leads to the second factor', async ({ page }) => {
    await page.goto('/profile');
    await page.getByRole('link', { name: 'Manage the second factor' }).click();
    await expect(page).toHaveURL(/\/second-factor$/);
    await expect(page.getByRole('heading', { name: 'Second factor', exact: true })).toBeVisible();
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`the setup, the recovery codes and the second step pass axe, ${scheme}`, async ({ page, request }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const account = await createDealer(request);
    await typePassword(page, account);
    await expectWelcome(page, account);
    await page.goto('/second-factor');
    const app = page.getByRole('region', { name: 'Authenticator app' });
    await app.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await expect(app.getByRole('img', { name: 'QR code to scan with an authenticator app' })).toBeVisible();
    expect(await violationsAtRest(page), 'setup').toEqual([]);

    const secret = (await app.getByTestId('totp-secret').textContent())!.replace(/\s+/g, '');
    await app.getByLabel(/^Code from the authenticator app/).fill(await generate({ secret }));
    await app.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByRole('dialog', { name: 'Your recovery codes' })).toBeVisible();
    await page.waitForTimeout(300);
    expect(await violationsAtRest(page), 'recovery codes').toEqual([]);
    await keepRecoveryCodes(page);

    await signOut(page);
    await typePassword(page, account);
    await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
    expect(await violationsAtRest(page), 'second step').toEqual([]);
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    expect(await violationsAtRest(page), 'second step, recovery code').toEqual([]);
  });
}
