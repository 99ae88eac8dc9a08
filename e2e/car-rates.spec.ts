import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/**
 * The rates screen against the seeded demo rates. Tests run in parallel on one server, so each
 * test changes the rates of a state of its own.
 */

type RateSet = {
  per_km: number | null;
  basePrice: number | null;
  nightCharge: number | null;
  waitingCharge: number | null;
  rushHour: number | null;
  surCharges: number | null;
  extra: number | null;
  version: number;
};
type AllRates = Record<string, Record<string, RateSet>>;

const FIELDS = [
  'per_km',
  'basePrice',
  'nightCharge',
  'waitingCharge',
  'rushHour',
  'surCharges',
  'extra',
] as const;

/** The grid's label of each field: the words staff use. */
const LABELS: Record<(typeof FIELDS)[number], string> = {
  per_km: 'Per km',
  basePrice: 'Base price',
  nightCharge: 'Night charge',
  waitingCharge: 'Waiting charge',
  rushHour: 'Rush hour',
  surCharges: 'Surcharges',
  extra: 'Extra',
};

const bearer = (session: Session | null) => ({ authorization: `Bearer ${session!.idToken}` });

async function fetchRates(page: Page, session: Session | null): Promise<AllRates> {
  const response = await page.request.get('/api/admin/getAllRates', { headers: bearer(session) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: AllRates }).data;
}

/** Opens the screen and goes to step 2 for a state, by its label. */
async function openState(page: Page, label: string) {
  await page.goto('/manage-prices');
  await expect(screenTitle(page, 'Manage Car Rates by State')).toBeVisible();
  await page.getByLabel('State', { exact: true }).selectOption({ label });
  await expect(page.getByRole('heading', { name: `Update Rates for ${label}` })).toBeVisible();
}

const field = (page: Page, name: (typeof FIELDS)[number]) => page.getByLabel(LABELS[name], { exact: true });

/** Presses the spec's save button and confirms the dialog that shows what changes. */
async function saveAndConfirm(page: Page, type: string) {
  await page.getByRole('button', { name: `Update ${type} Rates` }).click();
  await page
    .getByRole('dialog', { name: 'Check the changes before saving' })
    .getByRole('button', { name: 'Save these rates' })
    .click();
}

/** Rupees as the screen writes them: Indian grouping, paise only when there are some. */
const rupees = (amount: number) =>
  `₹${new Intl.NumberFormat('en-IN', {
    minimumFractionDigits: Math.round(amount * 100) % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount)}`;

/** The customer app's fare (packages/shared/src/fare.ts), written out again as the test's oracle. */
const fareOf = (set: Pick<RateSet, 'basePrice' | 'per_km' | 'nightCharge'>, km: number, night: boolean) =>
  Math.round(set.basePrice!) + set.per_km! * Math.round(km) + (night ? set.nightCharge! : 0);

test.describe('manage car rates', () => {
  test.use({ role: 'admin' });

  test('goes from choosing a state to its rates, and back with the arrow', async ({ page }) => {
    await page.goto('/manage-prices');
    await expect(screenTitle(page, 'Manage Car Rates by State')).toBeVisible();
    const stateSelect = page.getByLabel('State', { exact: true });
    await expect(stateSelect.locator('option:checked')).toHaveText('--Select a State--');
    const options = await stateSelect.locator('option').allTextContents();
    expect(options).toHaveLength(31);
    expect(options.slice(0, 3)).toEqual(['--Select a State--', 'Andhra Pradesh', 'Arunachal Pradesh']);
    expect(options.at(-1)).toBe('West Bengal');

    await stateSelect.selectOption({ label: 'Kerala' });
    await expect(page.getByRole('heading', { name: 'Update Rates for Kerala' })).toBeVisible();
    await expect(page.getByLabel('State', { exact: true })).toHaveCount(0);
    const carType = page.getByLabel('Car type');
    await expect(carType.locator('option:checked')).toHaveText('-- Select Car Type --');
    await expect(field(page, 'basePrice')).toHaveCount(0);

    await page.getByRole('button', { name: 'Back to states' }).click();
    await expect(page.getByRole('heading', { name: 'Update Rates for Kerala' })).toHaveCount(0);
    // The state is cleared: step 1 starts again from the placeholder.
    await expect(page.getByLabel('State', { exact: true }).locator('option:checked')).toHaveText(
      '--Select a State--',
    );
  });

  test('shows Loading rates... until the rates arrive', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/admin/getAllRates', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/manage-prices');
    await page.getByLabel('State', { exact: true }).selectOption({ label: 'Goa' });
    await expect(page.getByText('Loading rates...')).toBeVisible();
    release();
    await expect(page.getByText('Loading rates...')).toHaveCount(0);
    await expect(page.getByLabel('Car type')).toBeVisible();
  });

  test('shows Error fetching rates. when the rates cannot be loaded', async ({ page }) => {
    await page.route('**/api/admin/getAllRates', (route) =>
      route.fulfill({ status: 500, json: { error: 'Something went wrong on our side.', code: 'INTERNAL' } }),
    );
    await page.goto('/manage-prices');
    // Server errors are retried twice before the screen gives up.
    await expect(page.getByRole('alert')).toContainText('Error fetching rates.', { timeout: 20_000 });
  });

  test('offers only the state’s car types that have a basePrice, and adds a missing one', async ({
    page,
  }) => {
    // The demo gives every state all five types: remove SUV and blank Auto's basePrice on the way.
    await page.route('**/api/admin/getAllRates', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { data: AllRates };
      delete body.data.assam!.suv;
      body.data.assam!.auto!.basePrice = null;
      await route.fulfill({ response, json: body });
    });
    await openState(page, 'Assam');
    const carType = page.getByLabel('Car type');
    await expect(carType.locator('option')).toHaveText([
      '-- Select Car Type --',
      'Mini',
      'Sedan',
      'E-Rickshaw',
    ]);

    await page.getByRole('button', { name: 'Add a car type' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['SUV', 'Auto']);
    await page.getByRole('menuitem', { name: 'SUV' }).click();
    await expect(carType.locator('option:checked')).toHaveText('SUV (new)');
    for (const name of FIELDS) await expect(field(page, name)).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Update SUV Rates' })).toBeVisible();

    // Auto has a stored set without a basePrice: it is prefilled, blank where it has no value.
    await page.getByRole('button', { name: 'Add a car type' }).click();
    await expect(page.getByRole('menuitem')).toHaveText(['Auto']);
    await page.getByRole('menuitem', { name: 'Auto' }).click();
    await expect(field(page, 'basePrice')).toHaveValue('');
    await expect(field(page, 'per_km')).not.toHaveValue('');
  });

  test('asks for a car type, then saves the grid as numbers with a success message', async ({
    page,
    session,
  }) => {
    const stored = (await fetchRates(page, session)).punjab!.sedan!;
    await openState(page, 'Punjab');

    await page.getByRole('button', { name: 'Update Rates', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('Please select a car type.');

    await page.getByLabel('Car type').selectOption({ label: 'Sedan' });
    await expect(page.getByText('Please select a car type.')).toHaveCount(0);
    for (const name of FIELDS) await expect(field(page, name)).toHaveValue(String(stored[name] ?? ''));

    await field(page, 'basePrice').fill('91');
    await field(page, 'waitingCharge').fill('3.25');
    const request = page.waitForRequest(
      (r) => r.method() === 'PUT' && r.url().includes('/updateRates/punjab'),
    );
    await saveAndConfirm(page, 'Sedan');
    const body = (await request).postDataJSON() as Record<string, Record<string, unknown>>;
    expect(Object.keys(body)).toEqual(['sedan']);
    expect(body.sedan).toEqual({
      ...Object.fromEntries(FIELDS.map((name) => [name, stored[name]])),
      basePrice: 91,
      waitingCharge: 3.25,
      version: stored.version,
    });

    const success = page.getByRole('status').filter({ hasText: 'Sedan rates updated successfully!' });
    await expect(success).toBeVisible();
    const after = (await fetchRates(page, session)).punjab!.sedan!;
    expect(after).toMatchObject({ basePrice: 91, waitingCharge: 3.25, version: stored.version + 1 });

    // The change is in the history, with its author, and the next save builds on the new version.
    const history = page.getByRole('region', { name: 'Change history' });
    await expect(history).toContainText('Sedan updated');
    await expect(history).toContainText('Asha Rao');
    await expect(history).toContainText(`Base price ${stored.basePrice} → 91`);
    await field(page, 'extra').fill('4');
    await saveAndConfirm(page, 'Sedan');
    await expect(
      page.getByRole('status').filter({ hasText: 'Sedan rates updated successfully!' }),
    ).toBeVisible();
    expect((await fetchRates(page, session)).punjab!.sedan).toMatchObject({
      extra: 4,
      version: stored.version + 2,
    });
  });

  test('refuses a blank or out-of-range field with Error updating rates.', async ({ page, session }) => {
    const before = (await fetchRates(page, session)).bihar!.mini!;
    await openState(page, 'Bihar');
    await page.getByLabel('Car type').selectOption({ label: 'Mini' });
    await field(page, 'basePrice').fill('');
    await page.getByRole('button', { name: 'Update Mini Rates' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Error updating rates.');
    await expect(alert).toContainText('Base price: This field is required.');
    await expect(field(page, 'basePrice')).toHaveAccessibleDescription(/This field is required\./);

    await field(page, 'basePrice').fill('50');
    await field(page, 'rushHour').fill('12');
    await page.getByRole('button', { name: 'Update Mini Rates' }).click();
    await expect(page.getByRole('alert')).toContainText('Rush hour: Must be at most 10.');

    // A minus typed is kept and refused beside its field, never saved as the number without it.
    await field(page, 'rushHour').fill('1.2');
    await field(page, 'per_km').fill('-5');
    await expect(field(page, 'per_km')).toHaveValue('-5');
    await page.getByRole('button', { name: 'Update Mini Rates' }).click();
    await expect(page.getByRole('alert')).toContainText('Per km: Must be at least 0.');
    await expect(field(page, 'per_km')).toHaveAccessibleDescription(/Must be at least 0\./);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    expect((await fetchRates(page, session)).bihar!.mini).toEqual(before);
  });

  test('shows a conflict when someone else saved first, and reloads the current rates', async ({
    page,
    session,
  }) => {
    await openState(page, 'Rajasthan');
    await page.getByLabel('Car type').selectOption({ label: 'Mini' });
    const opened = (await fetchRates(page, session)).rajasthan!.mini!;
    await expect(field(page, 'basePrice')).toHaveValue(String(opened.basePrice));

    // Another admin saves Mini after the screen read it.
    const { version, ...values } = opened;
    const other = await page.request.put('/api/admin/updateRates/rajasthan', {
      headers: bearer(session),
      data: { mini: { ...values, basePrice: 77, version } },
    });
    expect(other.status(), await other.text()).toBe(200);

    await field(page, 'per_km').fill('14');
    await saveAndConfirm(page, 'Mini');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Error updating rates.');
    await expect(alert).toContainText(
      'These rates were changed by someone else since you opened them. Reload to see the current values.',
    );
    // The history shows the change made in between.
    await expect(page.getByRole('region', { name: 'Change history' })).toContainText(
      `Base price ${opened.basePrice} → 77`,
    );
    // Nothing of this save was stored.
    expect((await fetchRates(page, session)).rajasthan!.mini).toMatchObject({
      basePrice: 77,
      version: version + 1,
    });

    await page.getByRole('button', { name: 'Reload current rates' }).click();
    await expect(field(page, 'basePrice')).toHaveValue('77');
    await expect(field(page, 'per_km')).toHaveValue(String(opened.per_km));
    await expect(page.getByText('Reload current rates')).toHaveCount(0);

    await field(page, 'per_km').fill('14');
    await saveAndConfirm(page, 'Mini');
    await expect(
      page.getByRole('status').filter({ hasText: 'Mini rates updated successfully!' }),
    ).toBeVisible();
    expect((await fetchRates(page, session)).rajasthan!.mini).toMatchObject({
      basePrice: 77,
      per_km: 14,
      version: version + 2,
    });
  });

  test('previews the customer app’s fare with the unsaved values of the grid', async ({ page, session }) => {
    const before = (await fetchRates(page, session))['tamil nadu']!.sedan!;
    await openState(page, 'Tamil Nadu');
    await page.getByLabel('Car type').selectOption({ label: 'Sedan' });
    await field(page, 'basePrice').fill('70.4');
    await field(page, 'per_km').fill('15');
    await field(page, 'nightCharge').fill('40');

    const preview = page.getByRole('region', { name: 'Fare preview' });
    await expect(preview).toContainText(
      'Base price (in whole rupees) + Per km × the distance (in whole km), plus the Night charge from 21:00 to 04:00.',
    );
    const fare = preview.getByRole('status', { name: 'Fare' });
    const distance = preview.getByLabel('Distance (km)');
    const hour = preview.getByLabel('Hour of day (0–23)');
    await distance.fill('10.4');

    // round(70.4) + 15 x round(10.4), plus 40 from 21:00 to 04:00.
    for (const [at, expected] of [
      ['20', '₹220'],
      ['21', '₹260'],
      ['3', '₹260'],
      ['4', '₹220'],
    ] as const) {
      await hour.fill(at);
      await expect(fare, `at ${at}:00`).toHaveText(expected);
    }
    await expect(preview).toContainText('No night charge at 04:00');
    // 10.5 km rounds to 11.
    await distance.fill('10.5');
    await expect(fare).toHaveText('₹235');
    // per_km that is not whole gives paise.
    await field(page, 'per_km').fill('12.5');
    await distance.fill('3');
    await expect(fare).toHaveText('₹107.50');

    await field(page, 'basePrice').fill('');
    await expect(preview).toContainText('Enter Base price to see a fare.');
    // A value the save would refuse gives no fare either (a minus once priced trips below zero).
    await field(page, 'basePrice').fill('70');
    await field(page, 'per_km').fill('-5');
    await expect(preview).toContainText('Correct Per km to see a fare.');
    await expect(fare).toHaveCount(0);
    // Nothing was saved.
    expect((await fetchRates(page, session))['tamil nadu']!.sedan).toEqual(before);
  });

  test('copies rates outside the target’s fare band only with a reason', async ({ page, session }) => {
    // Nagaland, which no other test reads, notifies fares of ₹1: every rate is outside its band.
    const today = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10);
    const rule = {
      notifiedBaseFare: 1,
      notifiedPerKm: 1,
      maxMultiple: 2,
      minMultiple: 0.5,
      cancellationPercent: 10,
      cancellationCap: 100,
      driverShareOwnVehicle: 80,
      driverShareCompanyVehicle: 60,
    };
    const saved = await page.request.put('/api/fare-rules/nagaland', {
      headers: { authorization: `Bearer ${session!.idToken}` },
      data: {
        effectiveFrom: today,
        rules: { mini: rule, sedan: rule, suv: rule, erickshaw: rule, auto: rule },
      },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    const before = (await fetchRates(page, session)).nagaland;

    await openState(page, 'Meghalaya');
    const copy = page.getByRole('region', { name: 'Copy these rates to another state' });
    await copy.getByLabel('Copy to').selectOption({ label: 'Nagaland' });
    await copy.getByRole('button', { name: 'Copy rates' }).click();
    await page
      .getByRole('dialog', { name: 'Copy rates' })
      .getByRole('button', { name: 'Copy to Nagaland' })
      .click();
    const refusal = copy.getByRole('alert');
    await expect(refusal).toContainText('outside the fare band of Nagaland');
    expect((await fetchRates(page, session)).nagaland).toEqual(before);

    await refusal.getByRole('button', { name: 'Copy onto Nagaland anyway' }).click();
    await expect(refusal).toContainText('Say why in at least 5 characters.');
    await refusal.getByLabel('Reason for keeping these rates').fill('Notified fares being corrected');
    await refusal.getByRole('button', { name: 'Copy onto Nagaland anyway' }).click();
    await expect(copy.getByRole('status')).toHaveText('The rates of Meghalaya were copied to Nagaland.');
    const all = await fetchRates(page, session);
    for (const [type, set] of Object.entries(all.meghalaya!)) {
      const { version: _, ...values } = set;
      expect(all.nagaland![type]).toMatchObject(values);
    }
  });

  test('copies a state’s rates to another state', async ({ page, session }) => {
    await openState(page, 'Sikkim');
    const copy = page.getByRole('region', { name: 'Copy these rates to another state' });
    await copy.getByLabel('Copy to').selectOption({ label: 'Tripura' });
    await copy.getByRole('button', { name: 'Copy rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy rates' });
    await expect(dialog).toContainText('Copy the rates of Sikkim');
    await dialog.getByRole('button', { name: 'Copy to Tripura' }).click();
    await expect(copy.getByRole('status')).toHaveText('The rates of Sikkim were copied to Tripura.');

    const all = await fetchRates(page, session);
    for (const [type, set] of Object.entries(all.sikkim!)) {
      const { version: _, ...values } = set;
      expect(all.tripura![type]).toMatchObject(values);
    }
  });

  test('shows what a save changes and the fares of sample trips before saving; Cancel saves nothing', async ({
    page,
    session,
  }) => {
    const stored = (await fetchRates(page, session)).haryana!.sedan!;
    await openState(page, 'Haryana');
    await page.getByLabel('Car type').selectOption({ label: 'Sedan' });
    const next = { basePrice: stored.basePrice! + 5, per_km: 21, nightCharge: stored.nightCharge! };
    await field(page, 'basePrice').fill(String(next.basePrice));
    await field(page, 'per_km').fill('21');
    let sent = 0;
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/updateRates/')) sent++;
    });

    await page.getByRole('button', { name: 'Update Sedan Rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check the changes before saving' });
    await expect(dialog).toContainText('The Sedan rates of Haryana change as below.');
    const changes = dialog.getByRole('table', { name: 'What changes' });
    await expect(changes.getByRole('row')).toHaveCount(stored.per_km === 21 ? 2 : 3);
    await expect(changes.getByRole('row', { name: /^Base price/ })).toHaveText(
      `Base price${rupees(stored.basePrice!)}${rupees(next.basePrice)}`,
    );
    await expect(changes.getByRole('row', { name: /^Night charge/ })).toHaveCount(0);
    const fares = dialog.getByRole('table', { name: 'Fares of sample trips' });
    for (const [trip, km, night] of [
      ['5 km by day (12:00)', 5, false],
      ['12 km at night (22:00)', 12, true],
      ['25 km by day (18:00)', 25, false],
    ] as const) {
      await expect(fares.getByRole('row', { name: trip })).toHaveText(
        `${trip}${rupees(fareOf(stored, km, night))}${rupees(fareOf(next, km, night))}`,
      );
    }

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    // Nothing was sent or saved, and the values typed are still in the grid.
    expect(sent).toBe(0);
    expect((await fetchRates(page, session)).haryana!.sedan).toEqual(stored);
    await expect(field(page, 'basePrice')).toHaveValue(String(next.basePrice));
    await expect(page.getByRole('status').filter({ hasText: 'rates updated' })).toHaveCount(0);

    // Escape closes it as Cancel does.
    await page.getByRole('button', { name: 'Update Sedan Rates' }).click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(sent).toBe(0);

    await saveAndConfirm(page, 'Sedan');
    await expect(
      page.getByRole('status').filter({ hasText: 'Sedan rates updated successfully!' }),
    ).toBeVisible();
    expect(sent).toBe(1);
    expect((await fetchRates(page, session)).haryana!.sedan).toMatchObject({
      ...next,
      version: stored.version + 1,
    });

    // The same values again: nothing to confirm, nothing sent.
    await page.getByRole('button', { name: 'Update Sedan Rates' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Nothing to save' })).toHaveText(
      'Nothing to save: these are the Sedan rates already stored.',
    );
    await expect(dialog).toHaveCount(0);
    expect(sent).toBe(1);
  });

  test('restores an earlier version from the history as the current rates', async ({ page, session }) => {
    // Two saves through the API: version v+1 with a base price of 61, then v+2 with 64.
    const opened = (await fetchRates(page, session)).uttarakhand!.sedan!;
    const { version, ...values } = opened;
    for (const [basePrice, based] of [
      [61, version],
      [64, version + 1],
    ] as const) {
      const saved = await page.request.put('/api/admin/updateRates/uttarakhand', {
        headers: bearer(session),
        data: { sedan: { ...values, basePrice, version: based } },
      });
      expect(saved.status(), await saved.text()).toBe(200);
    }
    await openState(page, 'Uttarakhand');
    await page.getByLabel('Car type').selectOption({ label: 'Sedan' });
    await expect(field(page, 'basePrice')).toHaveValue('64');

    const history = page.getByRole('region', { name: 'Change history' });
    const restored = version + 1;
    // The current version offers no restore.
    await expect(history.getByRole('button', { name: `Restore Sedan version ${version + 2}` })).toHaveCount(
      0,
    );
    await history.getByRole('button', { name: `Restore Sedan version ${restored}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Restore an earlier version' });
    await expect(dialog).toContainText(`go back to the values of version ${restored}`);
    await expect(
      dialog.getByRole('table', { name: 'What changes' }).getByRole('row', { name: /^Base price/ }),
    ).toHaveText('Base price₹64₹61');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await fetchRates(page, session)).uttarakhand!.sedan).toMatchObject({ basePrice: 64 });

    await history.getByRole('button', { name: `Restore Sedan version ${restored}` }).click();
    await dialog.getByRole('button', { name: `Restore Sedan version ${restored}` }).click();
    await expect(history.getByRole('status')).toHaveText(`Sedan rates restored to version ${restored}.`);
    await expect(dialog).toHaveCount(0);
    expect((await fetchRates(page, session)).uttarakhand!.sedan).toEqual({
      ...values,
      basePrice: 61,
      version: version + 3,
    });
    // The grid shows the restored values, the history the restore, and a save builds on it.
    await expect(field(page, 'basePrice')).toHaveValue('61');
    await expect(history).toContainText('Sedan restored to an earlier version');
    await expect(history).toContainText('Base price 64 → 61');
    await field(page, 'extra').fill(String((values.extra ?? 0) + 1));
    await saveAndConfirm(page, 'Sedan');
    await expect(
      page.getByRole('status').filter({ hasText: 'Sedan rates updated successfully!' }),
    ).toBeVisible();
    expect((await fetchRates(page, session)).uttarakhand!.sedan).toMatchObject({
      basePrice: 61,
      version: version + 4,
    });
  });
});

test.describe('manage car rates on a phone', { tag: '@phone' }, () => {
  test.use({ role: 'admin' });

  test('fits the screen with the grid, the fare preview and the confirmation, in dark', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await openState(page, 'Goa');
    await page.getByLabel('Car type').selectOption({ label: 'Auto' });
    await expect(
      page.getByRole('region', { name: 'Fare preview' }).getByRole('status', { name: 'Fare' }),
    ).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The confirmation fits the width too, its tables and buttons included.
    await field(page, 'extra').fill('123');
    await page.getByRole('button', { name: 'Update Auto Rates' }).click();
    const dialog = page.getByRole('dialog', { name: 'Check the changes before saving' });
    await expect(dialog.getByRole('table', { name: 'Fares of sample trips' })).toBeVisible();
    const width = page.viewportSize()!.width;
    for (const part of [
      dialog,
      dialog.getByRole('table', { name: 'What changes' }),
      dialog.getByRole('table', { name: 'Fares of sample trips' }),
      dialog.getByRole('button', { name: 'Save these rates' }),
    ]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    const scrollWidths = await dialog
      .locator('table')
      .evaluateAll((tables) => tables.map((table) => table.scrollWidth - table.clientWidth));
    expect(scrollWidths.every((extra) => extra <= 0)).toBe(true);
    // Away from the buttons: a hovered button is drawn in another shade.
    await page.mouse.move(0, 0);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);
    await page.getByRole('button', { name: 'Back to states' }).click();
    await expect(page.getByLabel('State', { exact: true })).toBeVisible();
  });
});
