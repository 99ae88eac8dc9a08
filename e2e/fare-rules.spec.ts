import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, test, type Role, type Session } from './fixtures';
import { screenTitle } from './routes';

/**
 * The fare rules screen (admins) against the demo's rules: Maharashtra and Delhi notified their
 * fares from 1 July 2025, Maharashtra's sedans are charged above its band, the other states have
 * the guidelines' defaults. Tests run in parallel on one server: the one that saves rules saves
 * Mizoram's, which no other test reads, and the save outside the band changes Maharashtra's sedan
 * rate only further out of it.
 */

const NETWORK = { timeout: 20_000 };

type OutOfBandRate = {
  state: string;
  carType: string;
  field: 'basePrice' | 'per_km';
  value: number;
  allowedMin: number;
  allowedMax: number;
  source: 'console' | 'firebase';
};

/** Today in India as the screen writes dates: DD/MM/YYYY. */
const todayInIndia = () =>
  new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Asia/Kolkata',
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date());

async function fetchReport(page: Page, session: Session | null): Promise<OutOfBandRate[]> {
  const response = await page.request.get('/api/fare-rules/report', { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: { rates: OutOfBandRate[] } }).data.rates;
}

/** Opens the screen at a state's rules and waits until they and the form have shown. */
async function openState(page: Page, state: string) {
  await page.goto('/fare-rules');
  await expect(screenTitle(page, 'Fare rules')).toBeVisible();
  await page.getByLabel('State', { exact: true }).selectOption({ label: state });
  await expect(page.getByRole('heading', { name: `Rules in effect today in ${state}` })).toBeVisible(NETWORK);
  await expect(page.getByRole('group', { name: 'Sedan' })).toBeVisible(NETWORK);
}

const ruleRow = (page: Page, type: string) => page.getByTestId(`fare-rule-${type}`);

test.describe('fare rules, admin', () => {
  test.use({ role: 'admin' });

  test('shows a state’s rules in effect today, from when, and the defaults elsewhere', async ({ page }) => {
    await page.goto('/drivers');
    await page.getByRole('navigation').getByRole('link', { name: 'Fare rules' }).click();
    await expect(page).toHaveURL(/\/fare-rules$/);
    await expect(screenTitle(page, 'Fare rules')).toBeVisible();
    const states = page.getByLabel('State', { exact: true });
    const options = await states.locator('option').allTextContents();
    expect(options).toHaveLength(31);
    expect(options.slice(0, 2)).toEqual(['--Select a State--', 'Andhra Pradesh']);

    await states.selectOption({ label: 'Maharashtra' });
    await expect(page).toHaveURL(/\?state=maharashtra$/);
    const sedan = ruleRow(page, 'sedan');
    // Maharashtra's own band (1.5x to 0.75x), the guidelines' fee and shares, since 1 July 2025.
    for (const text of ['Sedan', '×1.5', '×0.75', '10%', '₹100', '80%', '60%', '01/07/2025']) {
      await expect(sedan).toContainText(text, NETWORK);
    }
    await expect(sedan).not.toContainText('Not notified');
    await expect(page.getByText('No rules are scheduled for later days.')).toBeVisible();

    // A state that notified nothing: the guidelines' defaults, its fares not notified.
    await states.selectOption({ label: 'Goa' });
    await expect(page.getByRole('heading', { name: 'Rules in effect today in Goa' })).toBeVisible();
    const mini = ruleRow(page, 'mini');
    for (const text of ['Mini', 'Not notified', '×2', '×0.5', 'Default'])
      await expect(mini).toContainText(text);
  });

  test('keeps a state’s figures of the checks and vehicles, from a day on', async ({ page }) => {
    await openState(page, 'Mizoram');
    const section = page.getByRole('region', { name: 'Driver checks and vehicles in Mizoram' });
    const today = section.getByRole('table', { name: 'Figures in effect today in Mizoram' });
    await expect(section).toContainText("The guidelines' figures", NETWORK);
    await expect(today.getByRole('row', { name: /Induction training/ })).toContainText('40');
    await expect(today.getByRole('row', { name: /Health insurance cover/ })).toContainText('₹5,00,000');

    // Mizoram allows vehicles a year more, from today.
    await section.getByLabel('Vehicle age limit (years)').fill('9');
    await section.getByRole('button', { name: 'Save the figures of Mizoram' }).click();
    await expect(section.getByRole('status')).toHaveText(
      `The figures of Mizoram were saved, in effect from ${todayInIndia()}.`,
      NETWORK,
    );
    await expect(section).toContainText(`The state's figures, in effect since ${todayInIndia()}.`);
    await expect(today.getByRole('row', { name: /Vehicle age limit/ })).toContainText('9');

    // A figure the server refuses is named under its field, and nothing is saved.
    await section.getByLabel('Refresher training every (months)').fill('0');
    await section.getByRole('button', { name: 'Save the figures of Mizoram' }).click();
    await expect(section.getByLabel('Refresher training every (months)')).toHaveAttribute(
      'aria-invalid',
      'true',
      NETWORK,
    );
    await expect(today.getByRole('row', { name: /Refresher training/ })).toContainText('12');
  });

  test('saves new rules effective today, with the server’s field errors first', async ({
    page,
    request,
    session,
  }) => {
    await openState(page, 'Mizoram');
    const sedan = page.getByRole('group', { name: 'Sedan' });
    await expect(sedan.getByLabel('Highest multiple', { exact: true })).toHaveValue('2');
    await expect(sedan.getByLabel('Notified base fare', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Effective from')).toHaveValue(todayInIndia());

    // Nothing changed: nothing to save.
    await page.getByRole('button', { name: 'Save the rules of Mizoram' }).click();
    await expect(page.getByRole('alert')).toContainText('Change at least one value before saving.');

    // A changed car type needs all eight values.
    await sedan.getByLabel('Notified base fare', { exact: true }).fill('120');
    await page.getByRole('button', { name: 'Save the rules of Mizoram' }).click();
    await expect(sedan.getByLabel('Notified fare per km', { exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await expect(sedan.getByText('Enter a value.')).toBeVisible();

    // The server refuses a lowest multiple above 1, and says so under the field.
    await sedan.getByLabel('Notified fare per km', { exact: true }).fill('14');
    await sedan.getByLabel('Lowest multiple', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Save the rules of Mizoram' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'The rules could not be saved.' })).toBeVisible(
      NETWORK,
    );
    const lowest = sedan.getByLabel('Lowest multiple', { exact: true });
    await expect(lowest).toHaveAttribute('aria-invalid', 'true');

    await lowest.fill('0.8');
    await expect(lowest).not.toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('button', { name: 'Save the rules of Mizoram' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The rules of Mizoram are saved' })).toHaveText(
      `The rules of Mizoram are saved, in effect from ${todayInIndia()}.`,
      NETWORK,
    );

    // In effect at once: the table shows them from today, the other car types keep the defaults.
    const row = ruleRow(page, 'sedan');
    for (const text of ['₹120', '₹14', '×2', '×0.8', todayInIndia()]) await expect(row).toContainText(text);
    await expect(ruleRow(page, 'mini')).toContainText('Default');
    // The form starts again from what is in effect.
    await expect(sedan.getByLabel('Notified base fare', { exact: true })).toHaveValue('120');

    const response = await request.get('/api/fare-rules', { headers: authHeader(session) });
    const states = (await response.json()) as {
      data: {
        state: string;
        rules: Record<string, { notifiedBaseFare: number | null; minMultiple: number }>;
      }[];
    };
    const mizoram = states.data.find((entry) => entry.state === 'mizoram')!;
    expect(mizoram.rules.sedan).toMatchObject({ notifiedBaseFare: 120, minMultiple: 0.8 });
    expect(mizoram.rules.mini!.notifiedBaseFare).toBeNull();
  });

  test('the report lists Maharashtra’s sedan outside its band, and exports it', async ({ page, session }) => {
    const rates = await fetchReport(page, session);
    const outside = rates.find((rate) => rate.state === 'maharashtra' && rate.carType === 'sedan');
    expect(outside, JSON.stringify(rates)).toBeDefined();

    await page.goto('/fare-rules');
    const report = page.getByRole('region', { name: 'Fare report' });
    const month = report.getByLabel('Month');
    const thisMonth = new Intl.DateTimeFormat('en-IN', {
      timeZone: 'Asia/Kolkata',
      month: 'long',
      year: 'numeric',
    }).format(new Date());
    await expect(month.locator('option:checked')).toHaveText(thisMonth);

    const table = report.getByRole('table', { name: 'Rates outside the fare band' });
    const row = table
      .getByRole('row')
      .filter({ hasText: 'Maharashtra' })
      .filter({ hasText: 'Sedan' })
      .filter({ hasText: outside!.field === 'basePrice' ? 'Base price' : 'Per km' });
    await expect(row.first()).toBeVisible(NETWORK);
    await expect(row.first()).toContainText('Console');
    await expect(row.first()).toContainText(/₹[\d,.]+ to ₹[\d,.]+/);
    await expect(report.getByRole('heading', { name: 'Commission above the cap' })).toBeVisible();

    const downloading = page.waitForEvent('download', NETWORK);
    await report.getByRole('button', { name: 'Export CSV', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toMatch(/Maharashtra,Sedan/);
  });

  test('Manage Prices keeps a rate outside the band only with a reason', async ({ page, session }) => {
    const rates = await fetchReport(page, session);
    const allowedMax = rates.find(
      (rate) => rate.state === 'maharashtra' && rate.carType === 'sedan' && rate.field === 'basePrice',
    )?.allowedMax;
    const stored = await page.request.get('/api/admin/getAllRates', { headers: authHeader(session) });
    const current = ((await stored.json()) as { data: Record<string, Record<string, { basePrice: number }>> })
      .data.maharashtra!.sedan!.basePrice;
    // Far above the band whatever the demo charged, and a change (an unchanged set is not checked).
    const basePrice = Math.max(Math.round((allowedMax ?? 500) * 3), current + 1);

    await page.goto('/manage-prices');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Maharashtra' });
    await page.getByLabel('Car type').selectOption({ label: 'Sedan' });
    await page.getByLabel('Base price', { exact: true }).fill(String(basePrice));
    await page.getByRole('button', { name: 'Update Sedan Rates' }).click();
    await page
      .getByRole('dialog', { name: 'Check the changes before saving' })
      .getByRole('button', { name: 'Save these rates' })
      .click();
    const refusal = page.getByRole('alert').filter({ hasText: 'Error updating rates.' });
    await expect(refusal).toContainText('outside the fare band of Maharashtra', NETWORK);

    const reason = refusal.getByLabel('Reason for keeping these rates');
    await reason.fill('abc');
    await refusal.getByRole('button', { name: 'Save with this reason' }).click();
    await expect(refusal.getByText('Say why in at least 5 characters.')).toBeVisible();

    await reason.fill('Airport sedans, agreed with the transport department');
    await refusal.getByRole('button', { name: 'Save with this reason' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Sedan rates' })).toHaveText(
      'Sedan rates updated successfully!',
      NETWORK,
    );
    await expect(page.getByLabel('Base price', { exact: true })).toHaveValue(String(basePrice));
  });

  test('passes axe in dark mode', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openState(page, 'Maharashtra');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expect(page.getByRole('table', { name: 'Rates outside the fare band' })).toBeVisible(NETWORK);
    expect(await seriousViolations(page)).toEqual([]);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`fare rules on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fits the width, is in the menu and passes axe', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/drivers');
      await page.getByRole('button', { name: 'Toggle navigation' }).click();
      await page.getByRole('navigation').getByRole('link', { name: 'Fare rules' }).click();
      await expect(screenTitle(page, 'Fare rules')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await page.getByLabel('State', { exact: true }).selectOption({ label: 'Maharashtra' });
      await expect(ruleRow(page, 'sedan')).toContainText('01/07/2025', NETWORK);
      await expect(page.getByRole('group', { name: 'Sedan' })).toBeVisible(NETWORK);
      await expect(page.getByRole('table', { name: 'Rates outside the fare band' })).toBeVisible(NETWORK);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}

for (const role of ['city_dealer', 'franchise'] as const satisfies Role[]) {
  test.describe(`fare rules, ${role}`, () => {
    test.use({ role });

    test('are neither offered nor opened', async ({ page, request, session }) => {
      await page.goto('/drivers');
      await expect(page.getByRole('navigation').getByRole('link', { name: 'Drivers' })).toBeVisible(NETWORK);
      await expect(page.getByRole('link', { name: 'Fare rules' })).toHaveCount(0);

      await page.goto('/fare-rules');
      await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
      await expect(page.getByText('You do not have access to this page.')).toBeVisible();
      await expect(screenTitle(page, 'Fare rules')).toHaveCount(0);

      for (const path of ['/api/fare-rules', '/api/fare-rules/report']) {
        const response = await request.get(path, { headers: authHeader(session) });
        expect(response.status(), path).toBe(403);
      }
    });
  });
}
