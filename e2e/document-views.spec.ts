import type { APIRequestContext, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, fetchDrivers, test, type ListedDriver, type Session } from './fixtures';
import { bringSectionIntoView } from './routes';

/**
 * The history of who was served a document's image, opened from the driver dashboard. Only
 * drivers of Bengaluru franchises are used (the group the other specs only read): their images
 * are viewed by other tests at the same time, so counts are "at least".
 */

const NETWORK = { timeout: 20_000 };
/** A moment as the console shows it in India: 24/11/2026, 9:05 pm. */
const MOMENT = /^\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} (am|pm)$/;

type DriverDocument = { key: string; label: string; hasImage: boolean };

/** A Bengaluru driver whose Aadhaar card has an image. */
async function driverWithAadhaar(request: APIRequestContext, session: Session): Promise<ListedDriver> {
  const drivers = (await fetchDrivers(request, session)).filter((d) =>
    d.franchiseName?.startsWith('Bengaluru '),
  );
  for (const driver of drivers) {
    const response = await request.get(`/api/drivers/driver/${driver.id}/documents`, {
      headers: authHeader(session),
    });
    const { data } = (await response.json()) as { data: DriverDocument[] };
    if (data.some((document) => document.key === 'aadharCard' && document.hasImage)) return driver;
  }
  throw new Error('The demo data has no Bengaluru driver with an Aadhaar image.');
}

/** A driver's file, its documents section (named in the screen's language) brought into view. */
async function openDashboard(page: Page, driver: ListedDriver, documents = 'Document details') {
  await page.goto(`/drivers/${driver.id}`);
  await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
  await bringSectionIntoView(page.getByRole('region', { name: documents }));
}

test.describe('the views of a document image', () => {
  test.use({ role: 'admin' });

  test('list who opened it and when, newest first, with more on demand', async ({
    page,
    request,
    session,
  }) => {
    const driver = await driverWithAadhaar(request, session!);
    const image = `/api/drivers/driver/${driver.id}/documents/aadharCard/image`;
    // More views than one page holds.
    for (let i = 0; i < 21; i++) {
      const response = await request.get(image, { headers: authHeader(session) });
      expect(response.status()).toBe(200);
    }

    await openDashboard(page, driver);
    const documents = page.getByRole('region', { name: 'Document details' });
    await expect(documents.getByRole('img', { name: 'Aadhar Card' })).toBeVisible(NETWORK);
    const opener = documents.getByRole('button', { name: 'Views of Aadhar Card' });
    await opener.click();

    const dialog = page.getByRole('dialog', { name: 'Views of Aadhar Card' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      'This image is shown with a watermark naming its viewer and the time.',
    );
    const table = dialog.getByRole('table', { name: 'Views of Aadhar Card' });
    await expect(table.getByRole('columnheader')).toHaveText(['Viewed by', 'Role', 'When'], NETWORK);
    const rows = table.locator('tbody').getByRole('row');
    await expect(rows).toHaveCount(20);
    // The newest: this page's own thumbnail, by the signed-in admin.
    const first = rows.first().getByRole('cell');
    await expect(first.nth(0)).toHaveText('Asha Rao');
    await expect(first.nth(1)).toHaveText('Admin');
    await expect(first.nth(2)).toHaveText(MOMENT);
    expect(await seriousViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: 'Load more views' }).click();
    await expect.poll(() => rows.count(), NETWORK).toBeGreaterThan(20);

    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(opener).toBeFocused();
  });

  test('a document without an image has no views to open', async ({ page, request, session }) => {
    const driver = await driverWithAadhaar(request, session!);
    const response = await request.get(`/api/drivers/driver/${driver.id}/documents`, {
      headers: authHeader(session),
    });
    const { data } = (await response.json()) as { data: DriverDocument[] };
    await openDashboard(page, driver);
    const documents = page.getByRole('region', { name: 'Document details' });
    for (const document of data) {
      await expect(documents.getByRole('button', { name: `Views of ${document.label}` })).toHaveCount(
        document.hasImage ? 1 : 0,
      );
    }
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`the views dialog on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fits the screen and passes axe', async ({ page, request, session }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const driver = await driverWithAadhaar(request, session!);
      await openDashboard(page, driver);
      await page.getByRole('button', { name: 'Views of Aadhar Card' }).click();
      const dialog = page.getByRole('dialog', { name: 'Views of Aadhar Card' });
      await expect(dialog.getByRole('cell').filter({ hasText: 'Asha Rao' }).first()).toBeVisible(NETWORK);
      // Nothing wider than the phone: the table is laid out as cards.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

test.describe('the views dialog in Hindi', { tag: '@phone' }, () => {
  test.use({ role: 'admin' });

  test('speaks Hindi, names and times included', async ({ page, request, session }) => {
    await page.addInitScript(() => {
      if (location.protocol.startsWith('http')) localStorage.setItem('bmet-language', 'hi');
    });
    const driver = await driverWithAadhaar(request, session!);
    await openDashboard(page, driver, 'दस्तावेज़ विवरण');
    await page.getByRole('button', { name: 'आधार कार्ड किसने देखा' }).click();
    const dialog = page.getByRole('dialog', { name: 'आधार कार्ड किसने देखा' });
    await expect(dialog).toContainText('जिस-जिसने यह इमेज खोली, सबसे नई पहले (भारतीय समय)।');
    await expect(dialog.getByRole('cell').filter({ hasText: 'एडमिन' }).first()).toBeVisible(NETWORK);
    // Times on the 12-hour clock with Hindi's am and pm.
    await expect(
      dialog
        .getByRole('cell')
        .filter({ hasText: /^\d{2}\/\d{2}\/\d{4}, \d{1,2}:\d{2} (पूर्वाह्न|अपराह्न)$/ })
        .first(),
    ).toBeVisible();
  });
});
