import { expect, test } from './fixtures';

test('GET / redirects to the landing page', async ({ request }) => {
  const response = await request.get('/', { maxRedirects: 0 });
  expect(response.status()).toBe(302);
  expect(response.headers()['location']).toBe('/landingPage/index.html');
});

test('the landing page shows the brand and leads staff to sign in', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/landingPage\/index\.html$/);
  await expect(page.getByRole('banner').getByText('Book-My-ETaxi', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What we offer' })).toBeVisible();

  await page.getByRole('banner').getByRole('link', { name: 'Staff sign in' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
});

test('the landing page loads without broken images or styles', async ({ page }) => {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  });
  await page.goto('/landingPage/index.html', { waitUntil: 'load' });
  const broken = await page
    .locator('img')
    .evaluateAll((images) =>
      (images as HTMLImageElement[])
        .filter((img) => !img.complete || img.naturalWidth === 0)
        .map((img) => img.src),
    );
  expect(broken).toEqual([]);
  expect(failures).toEqual([]);
});
