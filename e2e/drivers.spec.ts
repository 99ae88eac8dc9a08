import type { Page } from '@playwright/test';
import { authHeader, expect, fetchDrivers, signInThroughApi, test, type ListedDriver } from './fixtures';
import { screenTitle } from './routes';

/**
 * The 'Driver List' screen against the seeded demo drivers. Tests run in parallel on one server,
 * so a test that changes a driver uses one no other test reads: the only driver deleted here is
 * the last driver without a franchise (such drivers have no trips, and no dealer or franchise sees
 * them), and it is restored before the test ends. Driver-dashboard tests keep off that driver.
 */

/** Tables wait on the API; the machine running the tests may be busy. */
const NETWORK = { timeout: 20_000 };

const driverTable = (page: Page) => page.getByRole('table');
const bodyRows = (page: Page) => driverTable(page).locator('tbody tr');
/** The name itself, without the compliance badge shown under it. */
const nameCells = (page: Page) => driverTable(page).locator('tbody tr td:first-child > span:first-child');
const searchBox = (page: Page) => page.getByRole('textbox', { name: 'Search drivers' });
const summary = (page: Page) => page.getByText(/^(Showing \d+ of [\d,]+ |No drivers|No deleted drivers)/);

/**
 * Types a search. The list keeps showing the previous answer until the server's new one arrives,
 * so callers then wait for what the new answer shows.
 */
const search = (page: Page, q: string) => searchBox(page).fill(q);

/** Drivers of franchises outside the demo dealer's city: neither the demo dealer nor its franchise sees them. */
const notOfDemoDealer = (drivers: ListedDriver[]) =>
  drivers.filter((d) => d.franchiseName && !d.franchiseName.startsWith('Mumbai '));

test.describe('driver list as admin', () => {
  test.use({ role: 'admin' });

  test('shows the spec’s columns and row buttons, 50 drivers a page, and loads more', async ({
    page,
    request,
    session,
  }) => {
    const all = await fetchDrivers(request, session!);
    expect(all.length).toBeGreaterThan(100);
    const known = new Set(all.map((d) => d.name));

    await page.goto('/drivers');
    await expect(screenTitle(page, 'Driver List')).toBeVisible();
    await expect(driverTable(page).getByRole('columnheader')).toHaveText([
      'Name',
      'Email',
      'Phone Number',
      'Country',
      'Vehicle number',
      'Franchise',
      'Live',
      'Actions',
    ]);
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    await expect(summary(page)).toHaveText(/^Showing 50 of \d+ drivers$/);
    await expect(driverTable(page).getByRole('button', { name: 'Delete driver', exact: true })).toHaveCount(
      50,
    );
    await expect(driverTable(page).getByRole('button', { name: 'More', exact: true })).toHaveCount(50);
    for (const name of await nameCells(page).allTextContents()) expect(known).toContain(name);

    await page.getByRole('button', { name: 'Load more drivers' }).click();
    await expect(bodyRows(page)).toHaveCount(100, NETWORK);
    await expect(summary(page)).toHaveText(/^Showing 100 of \d+ drivers$/);
    const names = await nameCells(page).allTextContents();
    for (const name of names) expect(known).toContain(name);
  });

  test('shows No info for a missing email or phone and India for a missing country', async ({
    page,
    request,
    session,
  }) => {
    // Drivers of a franchise: the one driver another test deletes has none.
    const drivers = (await fetchDrivers(request, session!)).filter((d) => d.franchiseId && d.vehicleNumber);
    const cases = [
      drivers.find((d) => !d.email && d.phoneNumber),
      drivers.find((d) => !d.phoneNumber && d.email),
      drivers.find((d) => !d.country),
    ];
    await page.goto('/drivers');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    for (const driver of cases) {
      expect(driver, 'the demo data has such a driver').toBeDefined();
      await test.step(driver!.name, async () => {
        await search(page, driver!.vehicleNumber!);
        await expect(bodyRows(page)).toHaveCount(1, NETWORK);
        await expect(bodyRows(page).first().getByRole('cell')).toHaveText([
          // The name, then the compliance badge when the driver's documents are not in order.
          new RegExp(`^${driver!.name}`),
          driver!.email || 'No info',
          // Phones as staff read them: +91 98765 43210.
          driver!.phoneNumber ? /^\+91 \d{5} \d{5}$/ : 'No info',
          driver!.country || 'India',
          driver!.vehicleNumber!,
          driver!.franchiseName ?? '-',
          /^(Live|Stale|Offline|Unknown)/,
          /Delete driver\s*More/,
        ]);
      });
    }
  });

  test('search narrows the list on the server once typing pauses, and clearing it brings all back', async ({
    page,
    request,
    session,
  }) => {
    const term = 'Patel';
    const expected = await fetchDrivers(request, session!, '/api/drivers', term);
    expect(expected.length).toBeGreaterThan(1);

    await page.goto('/drivers');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    const queries: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/api/drivers' && url.searchParams.has('q'))
        queries.push(url.searchParams.get('q')!);
    });

    await searchBox(page).pressSequentially(term, { delay: 40 });
    await expect(summary(page)).toHaveText(
      `Showing ${expected.length} of ${expected.length} drivers`,
      NETWORK,
    );
    await expect(nameCells(page)).toHaveText(expected.map((d) => d.name));
    // Debounced: not one request per key stroke, and the last one asks for the whole word (sent
    // once typing pauses; a slow machine may pause inside the word, whose answer shows the same).
    await expect.poll(() => queries.at(-1), NETWORK).toBe(term);
    expect(queries.length).toBeLessThan(term.length);

    await searchBox(page).fill('no driver is called this');
    await expect(summary(page)).toHaveText('No drivers match “no driver is called this”.', NETWORK);
    await expect(driverTable(page)).toHaveCount(0);

    await searchBox(page).fill('');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    await expect(summary(page)).toHaveText(/^Showing 50 of \d+ drivers$/);
  });

  test('Delete driver asks to confirm: Cancel keeps the driver, Confirm removes it, Restore brings it back', async ({
    page,
    request,
    session,
  }) => {
    const target = (await fetchDrivers(request, session!)).filter((d) => !d.franchiseId).at(-1)!;
    expect(target.vehicleNumber).toBeTruthy();
    let deleted = false;
    try {
      await page.goto('/drivers');
      await expect(bodyRows(page)).toHaveCount(50, NETWORK);

      await test.step('Cancel dismisses the confirmation of that row only', async () => {
        const row = bodyRows(page).nth(1);
        const name = await row.getByRole('cell').first().textContent();
        await row.getByRole('button', { name: 'Delete driver' }).click();
        await expect(row.getByRole('button', { name: 'Confirm' })).toBeVisible();
        // The confirmation names the driver it deletes.
        await expect(row.getByRole('status')).toHaveText(new RegExp(`^Delete ${name!.split(' ')[0]} .*\\?$`));
        await expect(row.getByRole('button', { name: 'Cancel' })).toBeVisible();
        await expect(row.getByRole('button', { name: 'Delete driver' })).toHaveCount(0);
        await expect(page.getByRole('button', { name: 'Confirm' })).toHaveCount(1);
        await expect(page.getByRole('button', { name: 'Delete driver' })).toHaveCount(49);

        await row.getByRole('button', { name: 'Cancel' }).click();
        await expect(page.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
        await expect(row.getByRole('button', { name: 'Delete driver' })).toBeFocused();
        await expect(row.getByRole('cell').first()).toHaveText(name!);
        await expect(bodyRows(page)).toHaveCount(50);
      });

      await test.step('a refused deletion says why and keeps the driver', async () => {
        const row = bodyRows(page).nth(2);
        const name = await row.getByRole('cell').first().textContent();
        let answer!: () => void;
        const held = new Promise<void>((resolve) => (answer = resolve));
        await page.route('**/api/drivers/driver/*', async (route) => {
          if (route.request().method() !== 'DELETE') return route.fallback();
          await held;
          await route.fulfill({ status: 409, json: { error: 'The driver is on a trip.', code: 'CONFLICT' } });
        });
        await row.getByRole('button', { name: 'Delete driver' }).click();
        await row.getByRole('button', { name: 'Confirm' }).click();
        // Once sent, a deletion cannot be called back: Cancel waits for the answer.
        await expect(row.getByRole('button', { name: 'Cancel' })).toBeDisabled();
        answer();
        await expect(page.getByText('The driver is on a trip.')).toBeVisible(NETWORK);
        await expect(row.getByRole('button', { name: 'Delete driver' })).toBeFocused();
        await expect(row.getByRole('cell').first()).toHaveText(name!);
        await page.unroute('**/api/drivers/driver/*');
      });

      await test.step('Confirm deletes the driver and the list no longer shows it', async () => {
        await search(page, target.vehicleNumber!);
        const row = bodyRows(page).filter({ hasText: target.name });
        await expect(bodyRows(page)).toHaveCount(1);
        await expect(row).toHaveCount(1);
        await row.getByRole('button', { name: 'Delete driver' }).click();
        await row.getByRole('button', { name: 'Confirm' }).click();
        deleted = true;
        await expect(page.getByText(`${target.name} was deleted.`)).toBeVisible(NETWORK);
        await expect(summary(page)).toHaveText(`No drivers match “${target.vehicleNumber}”.`, NETWORK);
        await expect(driverTable(page)).toHaveCount(0);
      });

      await test.step('the Deleted drivers view shows it, and Restore brings it back', async () => {
        await page.getByText('Deleted drivers', { exact: true }).click();
        await expect(page.getByRole('radio', { name: 'Deleted drivers' })).toBeChecked();
        const row = bodyRows(page).filter({ hasText: target.name });
        await expect(row).toHaveCount(1, NETWORK);
        await expect(summary(page)).toHaveText('Showing 1 of 1 deleted drivers');
        await expect(row.getByRole('button', { name: 'Delete driver' })).toHaveCount(0);
        await row.getByRole('button', { name: 'Restore' }).click();
        await expect(page.getByText(`${target.name} is back in the driver list.`)).toBeVisible(NETWORK);
        deleted = false;
        await expect(summary(page)).toHaveText(`No drivers match “${target.vehicleNumber}”.`, NETWORK);

        await page.getByText('Active drivers', { exact: true }).click();
        const restored = bodyRows(page).filter({ hasText: target.name });
        await expect(restored).toHaveCount(1, NETWORK);
        await expect(restored.getByRole('button', { name: 'Delete driver' })).toBeVisible();
        await expect(restored.getByRole('button', { name: 'More' })).toBeVisible();
      });
    } finally {
      // Whatever failed above, leave the demo data as the other tests expect it.
      if (deleted)
        await request.post(`/api/drivers/driver/${target.id}/restore`, { headers: authHeader(session) });
    }
  });
});

test.describe('driver list as franchise', () => {
  test.use({ role: 'franchise' });

  test('shows exactly the franchise’s own drivers, without the deleted view', async ({
    page,
    request,
    session,
  }) => {
    const own = await fetchDrivers(request, session!, '/api/franchise');
    expect(own.length).toBeGreaterThan(0);
    expect(own.length).toBeLessThanOrEqual(50);
    const admin = await signInThroughApi(request, 'admin');
    const foreign = notOfDemoDealer(await fetchDrivers(request, admin)).find((d) => d.vehicleNumber)!;

    await page.goto('/drivers');
    await expect(screenTitle(page, 'Driver List')).toBeVisible();
    await expect(summary(page)).toHaveText(`Showing ${own.length} of ${own.length} drivers`, NETWORK);
    await expect(nameCells(page)).toHaveText(own.map((d) => d.name));
    await expect(page.getByRole('button', { name: 'Load more drivers' })).toHaveCount(0);
    await expect(page.getByText('Deleted drivers', { exact: true })).toHaveCount(0);

    // A driver of another city is not found, even by its exact vehicle number.
    await search(page, foreign.vehicleNumber!);
    await expect(summary(page)).toHaveText(`No drivers match “${foreign.vehicleNumber}”.`);
  });
});

test.describe('driver list as city dealer', () => {
  test.use({ role: 'city_dealer' });

  test('pages through exactly the drivers of the dealer’s franchises', async ({ page, request, session }) => {
    const own = await fetchDrivers(request, session!, '/api/city_dealer');
    expect(own.length).toBeGreaterThan(50);
    expect(own.length).toBeLessThanOrEqual(100);

    await page.goto('/drivers');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    await expect(summary(page)).toHaveText(`Showing 50 of ${own.length} drivers`);
    await expect(nameCells(page)).toHaveText(own.slice(0, 50).map((d) => d.name));

    await page.getByRole('button', { name: 'Load more drivers' }).click();
    await expect(summary(page)).toHaveText(`Showing ${own.length} of ${own.length} drivers`, NETWORK);
    await expect(nameCells(page)).toHaveText(own.map((d) => d.name));
    await expect(page.getByRole('button', { name: 'Load more drivers' })).toHaveCount(0);
    await expect(page.getByText('Deleted drivers', { exact: true })).toHaveCount(0);
  });
});
