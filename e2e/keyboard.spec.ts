import type { Locator, Page } from '@playwright/test';
import { ACCOUNTS, authHeader, DEMO_PASSWORD, expect, fetchDrivers, test } from './fixtures';
import { screenTitle } from './routes';

/**
 * The console with the keyboard alone: each flow reaches its controls with Tab and works them with
 * Enter, Space, arrows and typing, and the focused control is always visibly marked.
 */
const NETWORK = { timeout: 20_000 };

/** Presses Tab until `target` has the focus (at most `max` times), checking each stop is visibly focused. */
async function tabTo(page: Page, target: Locator, max = 80) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      await expectVisibleFocus(page);
      return;
    }
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** The focused element is marked: an outline or a ring of box-shadow. */
async function expectVisibleFocus(page: Page) {
  const unmarked = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'nothing has the focus';
    const style = getComputedStyle(el);
    const marked =
      (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none';
    return marked ? null : el.outerHTML.slice(0, 200);
  });
  expect(unmarked, 'the focused element is visibly marked').toBeNull();
}

test('signing in', async ({ page }) => {
  await page.goto('/admin');
  await tabTo(page, page.getByLabel('Email', { exact: false }).first());
  await page.keyboard.type(ACCOUNTS.admin.email);
  await page.keyboard.press('Tab');
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/welcome$/, NETWORK);
});

test.describe('signed in as admin', () => {
  test.use({ role: 'admin' });

  test('searching trips, opening one and closing it', async ({ page }) => {
    await page.goto('/trips');
    await expect(screenTitle(page, 'List of Trips')).toBeVisible();
    const rows = page.getByRole('table', { name: 'List of Trips' }).locator('tbody tr');
    await expect(rows).toHaveCount(50, NETWORK);
    const title = (await rows.nth(3).locator('td').first().locator('div').first().textContent())!;

    await tabTo(
      page,
      page.getByRole('textbox', { name: 'Search trips by name, phone, vehicle, place or trip ID' }),
    );
    await page.keyboard.type(title);
    await expect(rows.first()).toContainText(title, NETWORK);

    const view = rows.first().getByRole('button', { name: 'View Details' });
    await tabTo(page, view);
    await page.keyboard.press('Enter');
    const details = page.getByRole('region', { name: 'Trip details' });
    await expect(details).toBeVisible(NETWORK);
    await expect(details).toContainText(title);
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();
    // Closed, the list is as it was: its search stays in the address.
    await expect(page).toHaveURL(
      (url) => url.pathname === '/trips' && url.searchParams.get('q') === title.trim(),
    );
  });

  test('deleting a driver after confirming, then restoring it', async ({ page, request, session }) => {
    // One no other test changes (see drivers.spec.ts and driver-dashboard.spec.ts).
    const target = (await fetchDrivers(request, session!)).filter((d) => !d.franchiseId).at(-2)!;
    let deleted = false;
    try {
      await page.goto('/drivers');
      await tabTo(page, page.getByRole('textbox', { name: 'Search drivers' }));
      await page.keyboard.type(target.vehicleNumber!);
      const row = page.getByRole('table').locator('tbody tr').filter({ hasText: target.name });
      await expect(page.getByRole('table').locator('tbody tr')).toHaveCount(1, NETWORK);

      await tabTo(page, row.getByRole('button', { name: 'Delete driver' }));
      await page.keyboard.press('Enter');
      // The confirmation takes the focus on its safe choice.
      await expect(row.getByRole('button', { name: 'Cancel' })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(row.getByRole('button', { name: 'Confirm' })).toBeFocused();
      await expectVisibleFocus(page);
      await page.keyboard.press('Enter');
      deleted = true;
      await expect(page.getByText(`${target.name} was deleted.`)).toBeVisible(NETWORK);

      const deletedView = page.getByRole('radio', { name: 'Deleted drivers' });
      await tabTo(page, page.getByRole('radio', { name: 'Active drivers' }));
      await page.keyboard.press('ArrowRight');
      await expect(deletedView).toBeChecked();
      const restore = page.getByRole('table').locator('tbody tr').filter({ hasText: target.name });
      await tabTo(page, restore.getByRole('button', { name: 'Restore' }));
      await page.keyboard.press('Enter');
      await expect(page.getByText(`${target.name} is back in the driver list.`)).toBeVisible(NETWORK);
      deleted = false;
    } finally {
      if (deleted)
        await request.post(`/api/drivers/driver/${target.id}/restore`, { headers: authHeader(session!) });
    }
  });

  test('changing a state’s rates', async ({ page }) => {
    await page.goto('/manage-prices');
    await expect(screenTitle(page, 'Manage Car Rates by State')).toBeVisible();
    // Native selects: typing a name picks it; Enter opens the state reached.
    await tabTo(page, page.getByLabel('State', { exact: true }));
    await page.keyboard.type('Kerala');
    await expect(page.getByRole('heading', { name: /^Update Rates for/ })).toHaveCount(0);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Update Rates for Kerala' })).toBeVisible(NETWORK);
    await tabTo(page, page.getByLabel('Car type'));
    await page.keyboard.type('Mini');
    await tabTo(page, page.getByLabel('Base price', { exact: true }));
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.type('77');
    await tabTo(page, page.getByRole('button', { name: 'Update Mini Rates' }));
    await page.keyboard.press('Enter');
    // The confirmation opens on Cancel; the save is one Tab further.
    const confirm = page.getByRole('dialog', { name: 'Check the changes before saving' });
    await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(confirm.getByRole('button', { name: 'Save these rates' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('status').filter({ hasText: 'Mini rates updated successfully!' }),
    ).toBeVisible(NETWORK);
  });

  test('the enlarged document image keeps the focus and gives it back', async ({ page }) => {
    await page.goto('/drivers');
    await tabTo(page, page.getByRole('button', { name: 'More' }).first());
    await page.keyboard.press('Enter');
    const thumbnail = page.getByRole('button', { name: /^Enlarge .+ image$/ }).first();
    await expect(thumbnail).toBeVisible(NETWORK);
    await tabTo(page, thumbnail, 150);
    await page.keyboard.press('Enter');
    const overlay = page.getByRole('dialog', { name: /image, enlarged$/ });
    await expect(overlay).toBeVisible();
    const close = overlay.getByRole('button', { name: 'Close' });
    await expect(close).toBeFocused();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      await expect(close).toBeFocused();
    }
    await page.keyboard.press('Escape');
    await expect(overlay).toBeHidden();
    await expect(thumbnail).toBeFocused();
  });
});
