import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, fetchDrivers, test, type ListedDriver } from './fixtures';

/**
 * The header's search: one box for every kind of record a role may list, opened with Ctrl+K or `/`
 * (or the button), worked with the arrow keys and Enter, or the mouse.
 */
const NETWORK = { timeout: 20_000 };

/**
 * A driver of a Bengaluru franchise (other specs only read those) whose name no other driver's
 * contains: searching for it shows that driver first.
 */
function driverWithOwnName(drivers: ListedDriver[]): ListedDriver {
  const driver = drivers.find(
    (d) =>
      d.franchiseName?.startsWith('Bengaluru') &&
      drivers.filter((other) => other.name.toLowerCase().includes(d.name.toLowerCase())).length === 1,
  );
  if (!driver) throw new Error('The demo data has no such driver.');
  return driver;
}

const dialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const box = (page: Page) => page.getByRole('combobox', { name: /^Search by name/ });

/** The headings of the result groups, in their order. */
const groupNames = (page: Page) =>
  page
    .getByRole('listbox', { name: 'Search results' })
    .getByRole('group')
    .evaluateAll((groups) =>
      groups.map((group) => document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent),
    );

test.describe('as admin', () => {
  test.use({ role: 'admin' });

  test('Ctrl+K opens the search; a driver found by name opens with the arrow key and Enter', async ({
    page,
    request,
    session,
  }) => {
    const driver = driverWithOwnName(await fetchDrivers(request, session!));
    await page.goto('/welcome');
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeVisible(NETWORK);

    await page.keyboard.press('Control+k');
    await expect(dialog(page)).toBeVisible();
    await expect(box(page)).toBeFocused();
    // Before typing, it says what can be searched for: every kind, for an admin.
    await expect(dialog(page).getByRole('listitem')).toHaveCount(5);

    await page.keyboard.type(driver.name);
    const option = page
      .getByRole('group', { name: 'Drivers' })
      .getByRole('option', { name: new RegExp(`^${driver.name}`) });
    await expect(option).toBeVisible(NETWORK);
    expect((await groupNames(page))[0]).toBe('Drivers');
    // The dialog and the header's button (the screen behind has tests of its own).
    expect(await seriousViolations(page, ['[role="dialog"]', 'header'])).toEqual([]);

    await page.keyboard.press('ArrowDown');
    await expect(option).toHaveAttribute('aria-selected', 'true');
    await expect(box(page)).toHaveAttribute('aria-activedescendant', (await option.getAttribute('id'))!);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/drivers/${driver.id}$`));
    await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
    await expect(dialog(page)).toBeHidden();
  });

  test('`/` opens it, but not while typing in a field; Escape closes it; a click opens a result', async ({
    page,
    request,
    session,
  }) => {
    const driver = driverWithOwnName(await fetchDrivers(request, session!));
    await page.goto('/drivers');
    const listSearch = page.getByRole('textbox', { name: 'Search drivers' });
    await expect(listSearch).toBeVisible(NETWORK);
    await expect(page.getByRole('button', { name: 'Search', exact: true })).toBeVisible(NETWORK);

    await listSearch.click();
    await page.keyboard.type('a/b');
    await expect(listSearch).toHaveValue('a/b');
    await expect(dialog(page)).toBeHidden();

    await listSearch.evaluate((field) => (field as HTMLElement).blur());
    await page.keyboard.press('/');
    await expect(dialog(page)).toBeVisible();
    await expect(box(page)).toHaveValue('');
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toBeHidden();

    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await box(page).fill(driver.name.slice(0, 1));
    await expect(dialog(page).getByText('Type at least 2 characters.')).toBeVisible();
    await box(page).fill('zzqx no such record');
    await expect(
      dialog(page).getByRole('paragraph').filter({ hasText: 'Nothing matches “zzqx no such record”.' }),
    ).toBeVisible(NETWORK);
    // Said to a screen reader too, and with what can be searched for.
    await expect(dialog(page).getByRole('status')).toHaveText('Nothing matches “zzqx no such record”.');
    await expect(dialog(page).getByRole('listitem')).toHaveCount(5);

    await box(page).fill(driver.name);
    await page.getByRole('option', { name: new RegExp(`^${driver.name}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/drivers/${driver.id}$`));
    await expect(dialog(page)).toBeHidden();
  });
});

test.describe('as a franchise', () => {
  test.use({ role: 'franchise' });

  test('only the drivers and trips groups appear', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(dialog(page).getByRole('listitem')).toHaveCount(2);
    // Common in names and places alike: an admin would get customers, dealers and franchises too.
    await box(page).fill('ar');
    await expect(page.getByRole('listbox', { name: 'Search results' })).toBeVisible(NETWORK);
    expect(await groupNames(page)).toEqual(['Drivers', 'Trips']);
  });
});

test.describe('on a phone @phone', () => {
  test.use({ role: 'admin' });

  test('the button is an icon and the dialog takes the whole screen', async ({ page }) => {
    await page.goto('/welcome');
    const button = page.getByRole('button', { name: 'Search', exact: true });
    await expect(button).toBeVisible(NETWORK);
    await expect(page.getByText('Ctrl K')).toBeHidden();
    // It takes its room from the header's gaps: every other button stays on the screen too.
    for (const name of ['Search', 'Colours:', 'Contact Us', 'account menu']) {
      await expect(page.getByRole('banner').getByRole('button', { name }).first()).toBeInViewport({
        ratio: 1,
      });
    }
    await button.click();
    await expect(dialog(page)).toBeVisible();
    await expect.poll(() => dialog(page).boundingBox()).toMatchObject({ x: 0, y: 0, width: 390 });
  });
});
