import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, seedSession, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/**
 * City dealers, franchises, profile and update password, on the seeded demo data. Tests run in
 * parallel on one server: each creates the accounts it changes, with a tag of its own in the
 * name, and finds them with the lists' search.
 */

const tagged = () => randomUUID().slice(0, 8);
const STRONG = 'a-strong-e2e-passphrase';

const bearer = (session: Session | null) => ({ authorization: `Bearer ${session!.idToken}` });

/** Creates an account through the API, as the given session. */
async function createAccount(
  request: APIRequestContext,
  session: Session | null,
  kind: 'city_dealer' | 'franchise',
  input: { name: string; email: string; state: string; password?: string },
) {
  const response = await request.post(`/api/${kind}/create`, {
    headers: bearer(session),
    data: { password: STRONG, ...input },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { uid: string } }).data.uid;
}

async function signInApi(request: APIRequestContext, email: string, password: string, role: string) {
  return request.post('/api/auth/sign-in', { data: { email, password, role } });
}

/** A notification with exactly this text (the spec's alerts are in-page notifications). */
const notice = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });

async function fillAccountForm(page: Page, input: { name?: string; email?: string; password?: string }) {
  if (input.name !== undefined) await page.getByLabel('Name', { exact: true }).fill(input.name);
  if (input.email !== undefined) await page.getByLabel('Email', { exact: true }).fill(input.email);
  if (input.password !== undefined) await page.getByLabel(/^Password/).fill(input.password);
}

test.describe('City Dealer sign up', () => {
  test.use({ role: 'admin' });

  test('creates a dealer with the spec messages, and the dealer signs in', async ({ page, request }) => {
    const tag = tagged();
    const email = `dealer.${tag}@e2e.bookmyetaxi.test`;
    await page.goto('/createCityDealer');
    await expect(screenTitle(page, 'City Dealer sign up')).toBeVisible();
    const state = page.getByLabel('State', { exact: true });
    await expect(state.locator('option:checked')).toHaveText('Select State');

    await fillAccountForm(page, { name: `Nashik EV ${tag}`, email, password: STRONG });
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(notice(page, 'Please fill in all fields')).toBeVisible();

    await state.selectOption({ label: 'Maharashtra' });
    await page.getByLabel(/^Password/).fill('password123');
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(notice(page, 'This password is too common. Choose a less predictable one.')).toBeVisible();

    await page.getByLabel(/^Password/).fill(STRONG);
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(notice(page, 'New user has been created')).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('');

    const signIn = await signInApi(request, email, STRONG, 'city_dealer');
    expect(signIn.status()).toBe(200);

    await fillAccountForm(page, { name: 'Again', email, password: STRONG });
    await state.selectOption({ label: 'Goa' });
    await page.getByRole('button', { name: 'Sign up', exact: true }).click();
    await expect(notice(page, 'The email address is already in use by another account.')).toBeVisible();
  });

  test('Forgot Password? sends a reset mail to the typed email', async ({ page }) => {
    await page.goto('/createCityDealer');
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(notice(page, 'Please enter your email to reset the password')).toBeVisible();

    await fillAccountForm(page, { email: `someone.${tagged()}@e2e.bookmyetaxi.test` });
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await expect(notice(page, 'Password reset email sent. Please check your email inbox.')).toBeVisible();
  });
});

test.describe('City dealer list', () => {
  test.use({ role: 'admin' });

  test('newest first with the New Dealer notice; the popup shows, edits, disables and deletes', async ({
    page,
    request,
    session,
  }) => {
    const tag = tagged();
    const older = `Older Dealer ${tag}`;
    const newer = `Newer Dealer ${tag}`;
    const newerEmail = `newer.${tag}@e2e.bookmyetaxi.test`;
    await createAccount(request, session, 'city_dealer', {
      name: older,
      email: `older.${tag}@e2e.bookmyetaxi.test`,
      state: 'goa',
    });
    await createAccount(request, session, 'city_dealer', { name: newer, email: newerEmail, state: 'kerala' });

    await page.goto('/cityDealer');
    await expect(screenTitle(page, 'City Dealers')).toBeVisible();
    await expect(page.getByRole('columnheader')).toHaveText(['Name', 'Email', 'State', 'Notice']);
    await page.getByLabel('Search city dealers').fill(tag);
    const rows = page.getByRole('row').filter({ hasText: tag });
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(newer);
    await expect(rows.nth(0)).toContainText(`New Dealer: ${newer}`);
    await expect(rows.nth(1)).toContainText(older);
    await expect(rows.nth(1)).not.toContainText('New Dealer');

    await rows.nth(0).click();
    const popup = page.getByRole('dialog', { name: newer });
    await expect(popup).toBeVisible();
    await expect(popup).toContainText(newerEmail);
    await expect(popup).toContainText('Kerala');
    // Clicking outside closes it.
    await page.mouse.click(5, 400);
    await expect(popup).toBeHidden();

    await rows.nth(0).click();
    await popup.getByRole('button', { name: 'Edit' }).click();
    await popup.getByLabel('Name', { exact: true }).fill(`Renamed Dealer ${tag}`);
    await popup.getByRole('button', { name: 'Save' }).click();
    const renamed = page.getByRole('dialog', { name: `Renamed Dealer ${tag}` });
    await expect(renamed).toBeVisible();
    await expect(rows.nth(0)).toContainText(`New Dealer: Renamed Dealer ${tag}`);

    await renamed.getByRole('button', { name: 'Disable' }).click();
    await expect(renamed.getByText('Disabled: cannot sign in')).toBeVisible();
    expect((await signInApi(request, newerEmail, STRONG, 'city_dealer')).status()).toBe(403);
    await renamed.getByRole('button', { name: 'Enable' }).click();
    await expect(renamed.getByText('Disabled: cannot sign in')).toBeHidden();
    expect((await signInApi(request, newerEmail, STRONG, 'city_dealer')).status()).toBe(200);

    await renamed.getByRole('button', { name: 'Delete' }).click();
    await renamed.getByRole('button', { name: 'Confirm delete' }).click();
    await expect(renamed).toBeHidden();
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText(`New Dealer: ${older}`);
    expect((await signInApi(request, newerEmail, STRONG, 'city_dealer')).status()).toBe(403);
  });
});

test.describe('Franchise Sign up and list, as a city dealer', () => {
  test('a new dealer sees no franchises, creates one in its state and manages it', async ({
    page,
    request,
  }) => {
    const tag = tagged();
    const adminSignIn = await signInApi(request, 'admin@bookmyetaxi.test', DEMO_PASSWORD, 'admin');
    const admin = ((await adminSignIn.json()) as { data: Session }).data;
    const dealerEmail = `dealer.${tag}@e2e.bookmyetaxi.test`;
    await createAccount(request, admin, 'city_dealer', {
      name: `Dealer ${tag}`,
      email: dealerEmail,
      state: 'karnataka',
    });
    const dealerSignIn = await signInApi(request, dealerEmail, STRONG, 'city_dealer');
    await seedSession(page, ((await dealerSignIn.json()) as { data: Session }).data);

    await page.goto('/displayFranchise');
    await expect(screenTitle(page, 'Franchises')).toBeVisible();
    await expect(page.getByText('No dealers available.')).toBeVisible();

    await page.goto('/createfranchise');
    await expect(screenTitle(page, 'Franchise Sign up')).toBeVisible();
    const state = page.getByLabel('State', { exact: true });
    await expect(state).toBeDisabled();
    await expect(state.locator('option:checked')).toHaveText('Karnataka');
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(notice(page, 'Please fill in all fields')).toBeVisible();

    const franchiseEmail = `franchise.${tag}@e2e.bookmyetaxi.test`;
    await fillAccountForm(page, { name: `Mysuru Cabs ${tag}`, email: franchiseEmail, password: STRONG });
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(notice(page, 'New user has been created')).toBeVisible();
    expect((await signInApi(request, franchiseEmail, STRONG, 'franchise')).status()).toBe(200);

    await page.goto('/displayFranchise');
    const rows = page.getByRole('row').filter({ hasText: tag });
    await expect(rows).toHaveCount(1);
    await expect(rows.nth(0)).toContainText(`New Dealer: Mysuru Cabs ${tag}`);
    await expect(rows.nth(0)).toContainText('Karnataka');
    await rows.nth(0).click();
    const popup = page.getByRole('dialog', { name: `Mysuru Cabs ${tag}` });
    await expect(popup).toContainText(franchiseEmail);
    await expect(popup).toContainText(`Dealer ${tag}`);

    await popup.getByRole('button', { name: 'Disable' }).click();
    await expect(popup.getByText('Disabled: cannot sign in')).toBeVisible();
    expect((await signInApi(request, franchiseEmail, STRONG, 'franchise')).status()).toBe(403);
    await popup.getByRole('button', { name: 'Enable' }).click();
    await expect(popup.getByText('Disabled: cannot sign in')).toBeHidden();
    await page.keyboard.press('Escape');
    await expect(popup).toBeHidden();
  });
});

test.describe('Franchise Sign up, as an admin', () => {
  test.use({ role: 'admin' });

  test('the state defaults to the first one; a franchise can be put under a dealer of its state', async ({
    page,
    request,
    session,
  }) => {
    const tag = tagged();
    await createAccount(request, session, 'city_dealer', {
      name: `Assam Dealer ${tag}`,
      email: `assam.${tag}@e2e.bookmyetaxi.test`,
      state: 'assam',
    });
    await page.goto('/createfranchise');
    const state = page.getByLabel('State', { exact: true });
    await expect(state.locator('option:checked')).toHaveText('Andhra Pradesh');
    await state.selectOption({ label: 'Assam' });
    await page.getByLabel('City Dealer').selectOption({ label: `Assam Dealer ${tag}` });
    await fillAccountForm(page, {
      name: `Guwahati Cabs ${tag}`,
      email: `guwahati.${tag}@e2e.bookmyetaxi.test`,
      password: STRONG,
    });
    await page.getByRole('button', { name: 'Create User' }).click();
    await expect(notice(page, 'New user has been created')).toBeVisible();

    await page.goto('/displayFranchise');
    await page.getByLabel('Search franchises').fill(tag);
    const rows = page.getByRole('row').filter({ hasText: tag });
    await expect(rows).toHaveCount(1);
    await rows.nth(0).click();
    await expect(page.getByRole('dialog', { name: `Guwahati Cabs ${tag}` })).toContainText(
      `Assam Dealer ${tag}`,
    );
  });
});

test.describe('Update Password', () => {
  test.use({ role: 'admin' });

  test('asks for both fields, shows the answer, and the new password works', async ({
    page,
    request,
    session,
  }) => {
    const tag = tagged();
    const email = `update.${tag}@e2e.bookmyetaxi.test`;
    await createAccount(request, session, 'city_dealer', { name: `Dealer ${tag}`, email, state: 'goa' });
    const before = await signInApi(request, email, STRONG, 'city_dealer');
    const oldToken = ((await before.json()) as { data: Session }).data.idToken;

    await page.goto('/update-password');
    await expect(screenTitle(page, 'Update Password')).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(notice(page, 'Please enter both email and new password.')).toBeVisible();

    await page.getByLabel(/^New Password/).fill('short');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Password must be at least 8 characters.' }),
    ).toBeVisible();

    await page.getByLabel(/^New Password/).fill('a-new-e2e-passphrase');
    await page.getByRole('button', { name: 'Update Password' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: `The password of ${email} has been updated.` }),
    ).toBeVisible();

    const me = await request.get('/api/auth/me', { headers: { authorization: `Bearer ${oldToken}` } });
    expect(me.status()).toBe(401);
    expect((await signInApi(request, email, STRONG, 'city_dealer')).status()).toBe(401);
    expect((await signInApi(request, email, 'a-new-e2e-passphrase', 'city_dealer')).status()).toBe(200);
  });
});

test.describe('Profile', () => {
  // The second demo admin: the first one's name is what other tests greet.
  test('shows the display name and email; Edit and Save change the name in the header too', async ({
    page,
    request,
  }) => {
    const signIn = await signInApi(request, 'ops.admin@bookmyetaxi.test', DEMO_PASSWORD, 'admin');
    await seedSession(page, ((await signIn.json()) as { data: Session }).data);
    const name = `Kiran Desai ${tagged()}`;

    await page.goto('/profile');
    await expect(screenTitle(page, 'Profile')).toBeVisible();
    await expect(page.getByText('ops.admin@bookmyetaxi.test')).toBeVisible();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Display name').fill(name);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(notice(page, 'Your display name has been saved.')).toBeVisible();
    await expect(page.getByRole('main').getByText(name)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Account menu' })).toContainText(name);

    await page.reload();
    await expect(page.getByRole('main').getByText(name)).toBeVisible();
  });
});

test.describe('create forms say where the problem is', () => {
  test.use({ role: 'city_dealer' });

  test('an empty field says so beside it; the notice closes once it is filled; the new account is a link', async ({
    page,
  }) => {
    const tag = tagged();
    const name = `Pune Franchise ${tag}`;
    await page.goto('/createfranchise');
    await fillAccountForm(page, { email: `franchise.${tag}@e2e.bookmyetaxi.test`, password: STRONG });
    await page.getByRole('button', { name: 'Create User', exact: true }).click();
    await expect(notice(page, 'Please fill in all fields')).toBeVisible();
    const nameField = page.getByLabel('Name', { exact: true });
    await expect(nameField).toHaveAccessibleDescription(/This field is required\./);
    // The notice stays clear of the header's controls.
    const header = await page.locator('header').boundingBox();
    const shown = await notice(page, 'Please fill in all fields').boundingBox();
    expect(shown!.y).toBeGreaterThanOrEqual(header!.y + header!.height);

    await nameField.fill(name);
    await expect(notice(page, 'Please fill in all fields')).toHaveCount(0);
    await expect(nameField).not.toHaveAccessibleDescription(/This field is required\./);

    await page.getByRole('button', { name: 'Create User', exact: true }).click();
    await expect(notice(page, 'New user has been created')).toBeVisible();
    await page.getByRole('link', { name: `Open ${name}’s account` }).click();
    await expect(page).toHaveURL(/\/displayFranchise\?franchise=[0-9a-f-]{36}$/);
    await expect(page.getByRole('dialog')).toContainText(name);
  });
});
