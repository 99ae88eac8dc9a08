import { seriousViolations } from './axe';
import { authHeader, expect, test, type Role } from './fixtures';
import { screenTitle } from './routes';

/**
 * The Firebase link screen (admins). The browser tests' server runs without FIREBASE_DATABASE_URL,
 * so the screen shows the link as off; the configured screen has its component tests.
 */

const NETWORK = { timeout: 20_000 };

test.describe('Firebase link, admin', () => {
  test.use({ role: 'admin' });

  test('is reached from the navigation, says the link is off and how to turn it on', async ({
    page,
    request,
    session,
  }) => {
    await page.goto('/drivers');
    await page.getByRole('navigation').getByRole('link', { name: 'Firebase link' }).click();
    await expect(page).toHaveURL(/\/firebase-link$/);
    await expect(screenTitle(page, 'Firebase link')).toBeVisible();
    const off = page.getByTestId('firebase-link-off');
    await expect(off).toContainText('The link is off', NETWORK);
    await expect(off).toContainText("To turn it on, set FIREBASE_DATABASE_URL to the database's address");
    await expect(off).toContainText('“Living beside the apps: the Firebase link”');
    // Nothing to re-read while the link is off.
    await expect(page.getByRole('button', { name: 'Read again' })).toHaveCount(0);

    // The screen asks again every 5 s while it is open.
    await page.waitForRequest((asked) => new URL(asked.url()).pathname === '/api/firebase-link', {
      timeout: 8_000,
    });

    // What the screen shows is what the API answers, and a re-read is refused with its reason.
    const status = await request.get('/api/firebase-link', { headers: authHeader(session) });
    expect(await status.json()).toEqual({ data: null });
    const reread = await request.post('/api/firebase-link/reread', {
      headers: authHeader(session),
      data: { kind: 'trips' },
    });
    expect(reread.status()).toBe(409);
    expect(((await reread.json()) as { error: string }).error).toBe(
      'The Firebase link is not set up on this console (FIREBASE_DATABASE_URL is not set).',
    );

    expect(await seriousViolations(page)).toEqual([]);
  });

  test('passes axe in dark mode', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/firebase-link');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByTestId('firebase-link-off')).toBeVisible(NETWORK);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`Firebase link on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fits the width, is in the menu and passes axe', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/drivers');
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Firebase link' }).click();
      await expect(screenTitle(page, 'Firebase link')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await expect(page.getByTestId('firebase-link-off')).toBeVisible(NETWORK);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

for (const role of ['city_dealer', 'franchise'] as const satisfies Role[]) {
  test.describe(`Firebase link, ${role}`, () => {
    test.use({ role });

    test('is neither offered nor opened', async ({ page, request, session }) => {
      await page.goto('/drivers');
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Drivers' })).toBeVisible(NETWORK);
      await expect(page.getByRole('link', { name: 'Firebase link' })).toHaveCount(0);

      await page.goto('/firebase-link');
      await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
      await expect(page.getByText('You do not have access to this page.')).toBeVisible();
      await expect(screenTitle(page, 'Firebase link')).toHaveCount(0);

      const response = await request.get('/api/firebase-link', { headers: authHeader(session) });
      expect(response.status()).toBe(403);
    });
  });
}
