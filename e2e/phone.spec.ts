import { expect, signInThroughUi, test } from './fixtures';
import { screenTitle } from './routes';

test.describe('on a phone', { tag: '@phone' }, () => {
  test('signs in and follows a link from the navigation behind the burger', async ({ page }) => {
    await signInThroughUi(page, 'city_dealer');

    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    const franchises = nav.getByRole('link', { name: 'Franchises', exact: true });
    // The collapsed navigation is moved off the screen, not removed.
    await expect(franchises).not.toBeInViewport();

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await expect(franchises).toBeInViewport();
    await franchises.click();

    await expect(page).toHaveURL(/\/displayFranchise$/);
    await expect(screenTitle(page, 'Franchises')).toBeVisible();
    // Following a link folds the navigation away again.
    await expect(franchises).not.toBeInViewport();
  });

  test('Help sits in the header as an icon and Logout in the navigation', async ({ page }) => {
    await signInThroughUi(page, 'franchise');
    await page.getByRole('banner').getByRole('button', { name: 'Help' }).click();
    await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await nav.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/landingPage\/index\.html$/);
  });

  test('the sign-in form fits the screen', async ({ page }) => {
    await page.goto('/admin');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeInViewport();
  });

  test('Help and Contact Us are reachable before signing in', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('button', { name: 'Help' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Contact Us' })).toBeVisible();
  });
});

test.describe('lists on a phone', { tag: '@phone' }, () => {
  for (const [path, title, action] of [
    ['/trips', 'List of Trips', 'View Details'],
    ['/drivers', 'Driver List', 'More'],
  ] as const) {
    test(`${title} shows its rows as cards, with their actions in reach and nothing sideways`, async ({
      page,
    }) => {
      await signInThroughUi(page, 'admin');
      await page.goto(path);
      await expect(screenTitle(page, title)).toBeVisible();
      const rows = page.getByRole('row');
      // The header row is there for screen readers, not on the screen.
      await expect(rows.first()).not.toBeInViewport();
      const card = rows.nth(1);
      const box = (await card.boundingBox())!;
      const width = page.viewportSize()!.width;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      // A thumb-sized button, inside the card.
      const button = card.getByRole('button', { name: action });
      const target = (await button.boundingBox())!;
      expect(target.height).toBeGreaterThanOrEqual(40);
      expect(target.x + target.width).toBeLessThanOrEqual(box.x + box.width);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});

test.describe('trip filters on a phone', { tag: '@phone' }, () => {
  test('fold into a drawer that says how many are in use, and dialogs take the whole screen', async ({
    page,
  }) => {
    await signInThroughUi(page, 'admin');
    await page.goto('/trips');
    await expect(screenTitle(page, 'List of Trips')).toBeVisible();
    await expect(page.getByLabel('Status', { exact: true })).toBeHidden();

    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Filters' });
    await drawer.getByLabel('Status', { exact: true }).selectOption({ label: 'Cancelled' });
    await drawer.getByRole('button', { name: 'Show results' }).click();
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
    const statuses = page.getByRole('row').locator('td[data-label="Status"]');
    await expect(statuses.first()).toHaveText('Cancelled');
    // Text content, not inner text: cards out of sight are not laid out (content-visibility).
    for (const status of await statuses.allTextContents()) expect(status.toLowerCase()).toBe('cancelled');

    // The trip opened from a card fills the screen.
    await page.getByRole('button', { name: 'View Details' }).first().click();
    const details = page.getByRole('region', { name: 'Trip details' });
    await expect(details).toBeVisible();
    const box = (await details.boundingBox())!;
    expect(Math.round(box.width)).toBe(page.viewportSize()!.width);
  });
});

test.describe('the header on a phone', { tag: '@phone' }, () => {
  test('keeps every button on the screen', async ({ page }) => {
    await signInThroughUi(page, 'admin');
    for (const name of ['Toggle navigation', 'Colours:', 'Help', 'Contact Us', 'account menu']) {
      await expect(page.getByRole('banner').getByRole('button', { name }).first()).toBeInViewport({
        ratio: 1,
      });
    }
  });
});

test.describe('dialogs on a phone', { tag: '@phone' }, () => {
  test('take the whole screen', async ({ page }) => {
    await page.goto('/admin');
    await page.getByRole('button', { name: 'Help' }).click();
    const dialog = page.getByRole('dialog', { name: 'Help' });
    await expect(dialog).toBeVisible();
    const box = (await dialog.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(Math.round(box.width)).toBe(viewport.width);
    expect(Math.round(box.height)).toBe(viewport.height);
  });
});
