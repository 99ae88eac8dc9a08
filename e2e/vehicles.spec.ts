import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, fetchDrivers, test } from './fixtures';
import { bringSectionIntoView } from './routes';

/**
 * Vehicles, on the demo data: every demo driver drives the vehicle of their car details, some of
 * them older than the guidelines' 8 years. Only this spec adds or changes vehicles.
 */

const NETWORK = { timeout: 20_000 };

/** A number of the demo's form that no demo driver holds (their series have two letters). */
const newNumber = () =>
  `MH 14 ZQ${String.fromCharCode(65 + Math.floor(Math.random() * 26))} ${1000 + Math.floor(Math.random() * 9000)}`;

/** India's date `years` ago, as DD/MM/YYYY. */
function yearsAgo(years: number): string {
  const [year, month, day] = new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 10).split('-');
  return `${day}/${month}/${Number(year) - years}`;
}

const vehicleRows = (page: Page) => page.getByRole('table', { name: 'Vehicles' }).locator('tbody tr');

test.describe('vehicles as a franchise', () => {
  test.use({ role: 'franchise' });

  test('lists its drivers’ vehicles, finds one by its number in any spacing, and opens it', async ({
    page,
    request,
    session,
  }) => {
    const listed = await request.get('/api/vehicles', { headers: authHeader(session), params: { limit: 1 } });
    const [first] = Object.values(
      (await listed.json()).data as Record<string, { registrationNumber: string }>,
    );
    await page.goto('/welcome');
    await page.getByRole('navigation').getByRole('link', { name: 'Vehicles' }).click();
    await expect(page.getByRole('heading', { name: 'Vehicles', level: 2 })).toBeVisible(NETWORK);
    await expect(vehicleRows(page).first()).toBeVisible(NETWORK);

    // Typed as staff hear it on the phone: lower case, with dashes.
    const spoken = first!.registrationNumber.toLowerCase().replace(/^(..)(..)/, '$1-$2-');
    await page.getByLabel('Search vehicles').fill(spoken);
    await expect(vehicleRows(page)).toHaveCount(1, NETWORK);
    await vehicleRows(page).first().click();
    await expect(page.getByRole('region', { name: 'Details' })).toBeVisible(NETWORK);
    await expect(page.getByRole('region', { name: 'Driven by' }).getByRole('link')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Who drove it' })).toContainText('Driver app');
    // Its documents, insurance included, reviewed on its driver's page.
    const documents = page.getByRole('table', { name: 'Documents' });
    await expect(documents.getByRole('row')).toHaveCount(6);
    await expect(documents).toContainText('RC Certificate');
    await expect(documents).toContainText('Vehicle Insurance');
    await expect(page.getByRole('region', { name: 'Documents' })).toContainText(
      'The documents travel with the vehicle and are reviewed on the page of its driver',
    );
  });

  test('adds a vehicle, marks it too old, and gives it to a driver', async ({ page, request, session }) => {
    const number = newNumber();
    // Next to last of the page: the drivers other specs open keep their vehicles' documents.
    const driver = (await fetchDrivers(request, session!, '/api/franchise')).at(-2);
    const ownVehicle = Object.values(
      (
        await (
          await request.get('/api/vehicles', {
            headers: authHeader(session),
            params: { driverId: driver!.id },
          })
        ).json()
      ).data as Record<string, { id: string }>,
    )[0];
    await page.goto('/vehicles');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    const add = page.getByRole('dialog', { name: 'Add a vehicle' });
    await add.getByLabel('Registration number').fill('MH 12');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(
      add.getByText('Enter a registration number such as MH 12 AB 1234 or 22 BH 1234 AA.'),
    ).toBeVisible(NETWORK);
    await add.getByLabel('Registration number').fill(number.toLowerCase());
    await add.getByLabel('Make', { exact: true }).fill('Tata');
    await add.getByLabel('Model', { exact: true }).fill('Tigor EV');
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Vehicle ${number} saved.`)).toBeVisible(NETWORK);
    await expect(page.getByRole('heading', { name: number, level: 2 })).toBeVisible(NETWORK);
    await expect(page.getByRole('region', { name: 'Driven by' })).toContainText('No driver');
    await expect(page.getByRole('region', { name: 'Documents' })).toContainText(
      'Nobody drives this vehicle: its documents stay with it',
    );

    await page.getByRole('button', { name: 'Change details' }).click();
    const edit = page.getByRole('dialog', { name: "Change the vehicle's details" });
    await edit.getByLabel('First registered').fill(yearsAgo(9));
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Not compliant' })).toContainText(
      'Older than 8 years',
      NETWORK,
    );
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('9 years');

    await page.getByRole('button', { name: 'Change driver' }).click();
    const assign = page.getByRole('dialog', { name: `Who drives ${number}` });
    await assign.getByLabel('Driver', { exact: true }).fill(driver!.name);
    await page
      .getByRole('option', { name: new RegExp(driver!.name) })
      .first()
      .click();
    await assign.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`${driver!.name} now drives ${number}.`)).toBeVisible(NETWORK);
    const history = page.getByRole('region', { name: 'Who drove it' });
    await expect(history.getByRole('row').filter({ hasText: driver!.name })).toContainText('Now');

    // The driver's dashboard shows the vehicle they drive now.
    await page.goto(`/drivers/${driver!.id}`);
    const vehicle = page.getByRole('region', { name: 'Vehicle', exact: true });
    await bringSectionIntoView(vehicle);
    await expect(vehicle.getByRole('link', { name: number })).toBeVisible(NETWORK);
    await expect(vehicle).toContainText('Not compliant');
    // Its insurance is reviewed there; the documents of the driver's own vehicle stayed with it.
    await expect(vehicle.getByRole('table', { name: `Insurance of ${number}` })).toContainText(
      'Vehicle Insurance',
    );
    await expect(vehicle.getByRole('table', { name: `Insurance of ${number}` })).toContainText(
      'Not submitted',
    );

    // The driver gets their own vehicle back, and its documents with it.
    const back = await request.put(`/api/vehicles/${ownVehicle!.id}/assignment`, {
      headers: authHeader(session),
      data: { driverId: driver!.id },
    });
    expect(back.status()).toBe(200);
  });
});

test.describe('vehicles as a city dealer', () => {
  test.use({ role: 'city_dealer' });

  test('must name the franchise a new vehicle works for', async ({ page }) => {
    await page.goto('/vehicles');
    await page.getByRole('button', { name: 'Add vehicle' }).click();
    const add = page.getByRole('dialog', { name: 'Add a vehicle' });
    await add.getByLabel('Registration number').fill(newNumber());
    await add.getByRole('button', { name: 'Save' }).click();
    await expect(add.getByText('Choose the franchise the vehicle works for.')).toBeVisible(NETWORK);
  });

  test('filters the vehicles not compliant, by their age or their documents', async ({ page }) => {
    await page.goto('/vehicles?compliance=not_compliant');
    await expect(vehicleRows(page).first()).toBeVisible(NETWORK);
    await expect(vehicleRows(page).first()).toContainText(
      /Why: .*(Older than 8 years|missing|rejected|awaiting review|expired)/,
    );
    await page.goto('/vehicles?compliance=compliant');
    await expect(vehicleRows(page).first()).toBeVisible(NETWORK);
    await expect(vehicleRows(page).first()).not.toContainText('Not compliant');
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`vehicles on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fit the width and pass axe @phone', async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/vehicles');
      await expect(vehicleRows(page).first()).toBeVisible(NETWORK);
      const fits = async () =>
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).toBeLessThanOrEqual(0);
      await fits();
      expect(await seriousViolations(page)).toEqual([]);
      await vehicleRows(page).first().click();
      await expect(page.getByRole('region', { name: 'Who drove it' })).toBeVisible(NETWORK);
      await fits();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
