import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, fetchDrivers, test, type ListedDriver } from './fixtures';
import { bringSectionIntoView } from './routes';

/**
 * The driver dashboard's checks beside the documents (police verification, fitness, trainings,
 * insurance), on the demo data: every demo driver has some, some of them lapsed or short. Only this
 * spec records checks, on the demo franchise's last driver.
 */

const NETWORK = { timeout: 20_000 };

const checksTable = (page: Page) => page.getByRole('table', { name: 'Checks, training and insurance' });

async function openChecks(page: Page, driver: ListedDriver) {
  await page.goto(`/drivers/${driver.id}`);
  await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
  // The section is drawn as it comes near the screen.
  await bringSectionIntoView(page.getByRole('region', { name: 'Checks, training and insurance' }));
  await expect(checksTable(page).locator('tbody tr')).toHaveCount(7, NETWORK);
}

/** India's date `days` from today, as DD/MM/YYYY. */
function indiaDate(days = 0): string {
  const [year, month, day] = new Date(Date.now() + 330 * 60_000 + days * 86_400_000)
    .toISOString()
    .slice(0, 10)
    .split('-');
  return `${day}/${month}/${year}`;
}

test.describe('driver checks as a franchise', () => {
  test.use({ role: 'franchise' });

  test('lists every check with its status, and records a police verification', async ({
    page,
    request,
    session,
  }) => {
    const drivers = await fetchDrivers(request, session!);
    const driver = drivers[drivers.length - 1]!;
    await openChecks(page, driver);
    const police = checksTable(page).getByRole('row').filter({ hasText: 'Police verification' });
    await expect(checksTable(page)).toContainText('Induction training');
    await expect(checksTable(page)).toContainText('Term insurance');

    await page.getByRole('button', { name: 'Record Police verification' }).click();
    const dialog = page.getByRole('dialog', { name: 'Record Police verification' });
    await dialog.getByLabel('Done on').fill(indiaDate(-2));
    await dialog.getByLabel('Reference').fill('PV/E2E/0001');
    await dialog.getByLabel('Valid until').fill(indiaDate(700));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Police verification recorded.')).toBeVisible(NETWORK);
    await expect(police).toContainText('PV/E2E/0001');
    await expect(police).toContainText('Valid');
    await expect(police).toContainText(indiaDate(-2));

    // A check recorded before it is done is refused on its field, and nothing changes.
    await page.getByRole('button', { name: 'Record Medical and psychological fitness' }).click();
    const medical = page.getByRole('dialog', { name: 'Record Medical and psychological fitness' });
    await medical.getByLabel('Done on').fill(indiaDate(5));
    await medical.getByLabel('Reference').fill('MED/E2E');
    await medical.getByRole('button', { name: 'Save' }).click();
    await expect(medical.getByText('A check cannot be recorded before it is done.')).toBeVisible(NETWORK);
  });
});

test.describe('drivers due remedial training, as an admin', () => {
  test.use({ role: 'admin' });

  test('are listed by a filter of the driver list, each with the training due', async ({
    page,
    request,
    session,
  }) => {
    await page.goto('/drivers');
    await page.getByLabel('Checks').selectOption({ label: 'Remedial training due this quarter' });
    await expect(page).toHaveURL(/remedial=due/);
    const [first] = await fetchDrivers(request, session!, '/api/drivers?remedial=due');
    await expect(page.getByRole('table').locator('tbody tr').first()).toContainText(first!.name, NETWORK);
    await openChecks(page, first!);
    const remedial = checksTable(page)
      .getByRole('row')
      .filter({ hasText: 'Remedial training (this quarter)' });
    await expect(remedial).toContainText('Due', NETWORK);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`driver checks on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fit the width and pass axe @phone', async ({ page, request, session }) => {
      await page.emulateMedia({ colorScheme: scheme });
      const [driver] = await fetchDrivers(request, session!);
      await openChecks(page, driver!);
      await checksTable(page).scrollIntoViewIfNeeded();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
