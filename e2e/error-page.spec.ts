import { expect, test } from './fixtures';

test.describe('signed in', () => {
  test.use({ role: 'admin' });

  test('a screen that fails shows the error page', async ({ page }) => {
    await page.goto('/error-test');
    await expect(page.getByRole('heading', { name: 'Unexpected Application Error!' })).toBeVisible();
    await page.getByRole('button', { name: 'Go to Welcome' }).click();
    await expect(page).toHaveURL(/\/welcome$/);
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/no-such-screen');
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('This page does not exist.')).toBeVisible();
    // Still inside the console: the navigation bar stays.
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
  });
});

test('an unknown path while signed out goes to the sign-in screen', async ({ page }) => {
  await page.goto('/no-such-screen');
  await expect(page).toHaveURL(/\/admin$/);
});

test('an unknown API path answers a JSON 404, not the web app', async ({ request }) => {
  const response = await request.get('/api/no-such-thing');
  expect(response.status()).toBe(404);
  expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
});
