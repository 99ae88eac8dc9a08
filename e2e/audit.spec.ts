import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { ACCOUNTS, authHeader, expect, fetchDrivers, signInThroughApi, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/** The audit trail screen: every change, who made it and what it changed, filtered in the address. */

const NETWORK = { timeout: 20_000 };

/** The city dealer creates a franchise through the API: one new change in the trail. */
async function createFranchise(request: APIRequestContext, dealer: Session) {
  const me = await request.get('/api/auth/me', { headers: authHeader(dealer) });
  const { state, id } = ((await me.json()) as { data: { state: string; id: string } }).data;
  const name = `Audit Franchise ${randomUUID().slice(0, 6)}`;
  const response = await request.post('/api/franchise/create', {
    headers: authHeader(dealer),
    data: {
      uuid: '',
      name,
      email: `audit.${randomUUID().slice(0, 8)}@e2e.bookmyetaxi.test`,
      password: 'a-strong-franchise-passphrase',
      state,
      currentUser: id,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return name;
}

test.describe('audit trail, admin', () => {
  test.use({ role: 'admin' });

  test('shows a change with its person, record and values; filters live in the address', async ({
    page,
    request,
  }) => {
    const dealer = await signInThroughApi(request, 'city_dealer');
    const name = await createFranchise(request, dealer);

    await page.goto('/audit');
    await expect(screenTitle(page, 'Audit trail')).toBeVisible();
    const row = page.getByRole('row').filter({ hasText: name }).first();
    await expect(row).toBeVisible(NETWORK);
    await expect(row).toContainText('Created');
    await expect(row).toContainText('Franchise');
    await expect(row).toContainText(ACCOUNTS.city_dealer.displayName);
    // The values the change wrote, as a before/after table.
    await expect(row.getByRole('columnheader', { name: 'After' })).toBeVisible();
    // Each field by its label, not its name in the data.
    await expect(row.getByRole('rowheader')).toContainText(['Name', 'Email', 'State', 'City dealer']);

    // The record's history: the filter goes into the address and survives a reload.
    await row.getByRole('button', { name: `Show the history of ${name}` }).click();
    await expect(page).toHaveURL(/recordId=/);
    await expect(page.getByRole('button', { name: `Remove the filter: History of ${name}` })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('button', { name: `Remove the filter: History of ${name}` })).toBeVisible(
      NETWORK,
    );
    await expect(page.getByRole('row').filter({ hasText: 'Created' })).toHaveCount(1, NETWORK);

    // A person's changes; the back button returns to the record's history.
    await page.getByRole('button', { name: `Remove the filter: History of ${name}` }).click();
    const person = ACCOUNTS.city_dealer.displayName;
    await page
      .getByRole('button', { name: `Show only the changes by ${person}` })
      .first()
      .click();
    await expect(page).toHaveURL(/actor=/);
    await expect(page.getByRole('button', { name: `Remove the filter: Changes by ${person}` })).toBeVisible();
    await page.goBack();
    await page.goBack();
    await expect(page.getByRole('button', { name: `Remove the filter: History of ${name}` })).toBeVisible(
      NETWORK,
    );
  });

  test("a driver's dashboard links to the driver's history", async ({ page, request, session }) => {
    const [driver] = await fetchDrivers(request, session!);
    await page.goto(`/drivers/${driver!.id}`);
    await expect(screenTitle(page, driver!.name)).toBeVisible(NETWORK);
    await page.getByRole('link', { name: 'History of changes' }).click();
    await expect(screenTitle(page, 'Audit trail')).toBeVisible();
    await expect(page).toHaveURL(/recordType=drivers/);
    await expect(page.getByRole('button', { name: /^Remove the filter: History of / })).toBeVisible();
  });
});

test.describe('audit trail, city dealer', () => {
  test.use({ role: 'city_dealer' });

  test("shows the dealer its own changes and none of other dealers' records", async ({
    page,
    request,
    session,
  }) => {
    const name = await createFranchise(request, session!);
    await page.goto('/drivers');
    await page.getByRole('navigation').getByRole('link', { name: 'Audit trail' }).click();
    await expect(screenTitle(page, 'Audit trail')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: name }).first()).toBeVisible(NETWORK);
    // What the dealer sees is what the API answers it: nothing of the rates (admins' only).
    await expect(page.getByText('Car rates', { exact: true })).toHaveCount(0);
  });
});

test.describe('audit trail, franchise', () => {
  test.use({ role: 'franchise' });

  test('is not offered to a franchise', async ({ page }) => {
    await page.goto('/drivers');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Drivers' })).toBeVisible(NETWORK);
    await expect(page.getByRole('link', { name: 'Audit trail' })).toHaveCount(0);
  });
});
