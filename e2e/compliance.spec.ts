import type { APIRequestContext } from '@playwright/test';
import { authHeader, expect, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/** Document compliance: the views of /compliance, the drivers' marker and filter, the expiry at review. */

test.describe.configure({ timeout: 90_000 });
const NETWORK = { timeout: 20_000 };

type Entry = {
  driverId: string;
  driverName: string;
  document: string;
  label: string;
  expiresOn: string | null;
};

async function entries(request: APIRequestContext, session: Session, query: string): Promise<Entry[]> {
  const response = await request.get(`/api/compliance?${query}&limit=200`, { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: Entry[] }).data;
}

for (const role of ['admin', 'city_dealer', 'franchise'] as const) {
  test.describe(`compliance, ${role}`, () => {
    test.use({ role });

    test('lists what the API lists for the caller, view by view, with the view in the address', async ({
      page,
      request,
      session,
    }) => {
      await page.goto('/drivers');
      await page.getByRole('navigation').getByRole('link', { name: 'Compliance' }).click();
      await expect(screenTitle(page, 'Document compliance')).toBeVisible(NETWORK);
      const expired = await entries(request, session!, 'within=0');
      if (expired.length === 0) {
        await expect(page.getByText('Nothing here: every document in this view is in order.')).toBeVisible(
          NETWORK,
        );
      } else {
        const first = expired[0]!;
        await expect(page.getByRole('row').nth(1)).toContainText(first.driverName, NETWORK);
        await expect(page.getByRole('row').nth(1)).toContainText(first.label);
        await expect(page.getByRole('row').nth(1)).toContainText('Expired');
        const [year, month, day] = first.expiresOn!.split('-');
        await expect(page.getByRole('row').nth(1)).toContainText(`${day}/${month}/${year}`);
      }

      await page.getByRole('button', { name: /^Awaiting review/ }).click();
      await expect(page).toHaveURL(/view=review/);
      const awaiting = await entries(request, session!, 'status=submitted');
      await page.reload();
      await expect(page.getByRole('button', { name: /^Awaiting review/ })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      if (awaiting.length > 0) {
        await expect(page.getByRole('row').nth(1)).toContainText(awaiting[0]!.driverName, NETWORK);
        await expect(page.getByRole('row')).toHaveCount(Math.min(awaiting.length, 50) + 1);
      }
    });
  });
}

test.describe('compliance, admin', () => {
  test.use({ role: 'admin' });

  test('filters the drivers who are not compliant, with their reasons', async ({ page }) => {
    await page.goto('/drivers');
    await page.getByLabel('Compliance').selectOption({ label: 'Not compliant' });
    const rows = page.getByRole('row');
    await expect(rows.nth(1)).toContainText('Not compliant', NETWORK);
    await expect(rows.nth(1)).toContainText('Why:');
    const count = await rows.count();
    for (let index = 1; index < Math.min(count, 10); index++) {
      await expect(rows.nth(index)).toContainText('Not compliant');
    }
  });

  test('asks for the expiry date when approving a document that expires, and shows it', async ({
    page,
    request,
    session,
  }) => {
    const expiring = [
      'Driver Licence',
      'RC Certificate',
      'Pollution Certificate',
      'Fitness Certificate',
      'Vehicle Permit',
    ];
    const awaiting = (await entries(request, session!, 'status=submitted')).filter((entry) =>
      expiring.includes(entry.label),
    );
    const entry = awaiting.at(-1)!;
    await page.goto(`/drivers/${entry.driverId}`);
    const row = page.getByRole('row').filter({ hasText: entry.label });
    await row.getByRole('button', { name: 'Approve' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve ${entry.label}` });
    await dialog.getByLabel('Expiry date').fill('01/01/2020');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog.getByRole('alert')).toContainText(
      'it cannot be approved with an expiry date in the past',
    );
    await dialog.getByLabel('Expiry date').fill('31/12/2030');
    await dialog.getByRole('button', { name: 'Approve' }).click();
    await expect(dialog).toBeHidden(NETWORK);
    await expect(row).toContainText('Expires on 31/12/2030', NETWORK);
    await expect(
      row.getByRole('button', { name: `Correct the expiry date of ${entry.label}` }),
    ).toBeVisible();
  });
});
