import type { APIRequestContext, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, fetchDrivers, test, type ListedDriver, type Session } from './fixtures';
import { bringSectionIntoView } from './routes';

/**
 * The driver dashboard's Wallet section, read-only, on the demo data (the first demo drivers have
 * wallets as the driver app kept them: recharges, ride commissions, rewards).
 */

const NETWORK = { timeout: 20_000 };

type Wallet = {
  data: { balance: number | null; entries: { kind: string; amount: number; credit: boolean }[] };
  nextCursor: string | null;
};

async function walletOf(request: APIRequestContext, session: Session, id: string): Promise<Wallet> {
  const response = await request.get(`/api/drivers/driver/${id}/wallet?limit=10`, {
    headers: authHeader(session),
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as Wallet;
}

/** A driver the session may see whose wallet has more than one page of entries. */
async function driverWithWallet(
  request: APIRequestContext,
  session: Session,
): Promise<[ListedDriver, Wallet]> {
  for (const driver of await fetchDrivers(request, session)) {
    const wallet = await walletOf(request, session, driver.id);
    if (wallet.nextCursor && wallet.data.balance !== null) return [driver, wallet];
  }
  throw new Error('no demo driver with a wallet of more than one page');
}

const walletRegion = (page: Page) => page.getByRole('table', { name: 'Wallet' });

async function openWallet(page: Page, driver: ListedDriver) {
  await page.goto(`/drivers/${driver.id}`);
  await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  // The section is drawn as it comes near the screen.
  await bringSectionIntoView(page.getByRole('region', { name: 'Wallet' }));
  await expect(walletRegion(page).getByRole('row')).not.toHaveCount(0, NETWORK);
}

const INDIAN_RUPEES = /^₹\d{1,3}(,\d\d)*(,\d{3})?(\.\d\d)? (added|deducted)$/;

for (const role of ['admin', 'franchise'] as const) {
  test.describe(`the wallet as ${role}`, () => {
    test.use({ role });

    test('shows the balance and the entries newest first, ten at a time, in rupees and IST', async ({
      page,
      request,
      session,
    }) => {
      const [driver, wallet] = await driverWithWallet(request, session!);
      await openWallet(page, driver);
      const balance = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 }).format(
        wallet.data.balance!,
      );
      await expect(page.getByText(`Balance: ₹${balance}`)).toBeVisible();
      const rows = walletRegion(page).locator('tbody tr');
      await expect(rows).toHaveCount(10);
      const first = wallet.data.entries[0]!;
      await expect(rows.first()).toContainText(first.credit ? 'added' : 'deducted');
      for (const text of await rows.locator('td:nth-child(3)').allInnerTexts()) {
        expect(text.trim()).toMatch(INDIAN_RUPEES);
      }
      // Dates in India's format, with the time of day.
      await expect(rows.first().locator('td').first()).toHaveText(/\d{2}\/\d{2}\/\d{4}/);
      await page.getByRole('button', { name: 'Load more entries' }).click();
      await expect(rows).not.toHaveCount(10, NETWORK);
    });
  });
}

test.describe('the wallet, checked', () => {
  test.use({ role: 'admin' });

  test('has no serious accessibility problem in either colour scheme', async ({ page, request, session }) => {
    const [driver] = await driverWithWallet(request, session!);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await openWallet(page, driver);
      expect(await seriousViolations(page, ['table[aria-label="Wallet"]'])).toEqual([]);
    }
  });

  test('fits a phone @phone', async ({ page, request, session }) => {
    const [driver] = await driverWithWallet(request, session!);
    await openWallet(page, driver);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: 'Load more entries' })).toBeVisible();
  });
});
