import { expect, signInThroughUi, test } from './fixtures';

test.describe('colour scheme', () => {
  test.use({ role: 'admin' });

  test('follows the system at first, then light or dark as chosen, remembered after a reload', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/trips');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

    const button = page.getByRole('button', { name: /^Colours: as the system/ });
    await button.click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await expect(page.getByRole('button', { name: /^Colours: light/ })).toBeVisible();

    await page.reload();
    // Applied before the app has loaded: the page's first paint is already light.
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
    await page.getByRole('button', { name: /^Colours: light/ }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.getByRole('button', { name: /^Colours: dark/ }).click();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  });

  test('the first paint already has the remembered scheme, under the page security policy', async ({
    page,
  }) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.addInitScript(() => localStorage.setItem('mantine-color-scheme-value', 'dark'));
    await page.emulateMedia({ colorScheme: 'light' });
    // The page's own HTML, before any of its scripts have loaded.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/trips');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(refused).toEqual([]);
  });
});

test.describe('keyboard', () => {
  test.use({ role: 'admin' });

  test('a skip link is the first stop and moves the focus to the screen', async ({ page }) => {
    await page.goto('/trips');
    await expect(page.getByRole('heading', { name: 'List of Trips' })).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#content')).toBeFocused();
  });
});

test.describe('colour scheme before sign-in', () => {
  test('chosen on the sign-in screen, stays through the sign-in', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/admin');
    const html = page.locator('html');
    await page.getByRole('button', { name: /^Colours: as the system/ }).click();
    await page.getByRole('button', { name: /^Colours: light/ }).click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');

    await signInThroughUi(page, 'city_dealer');
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.reload();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  });
});
