import type { APIRequestContext, Page } from '@playwright/test';
import {
  authHeader,
  expect,
  openStreams,
  ROLES,
  signInThroughApi,
  test,
  type Role,
  type Session,
} from './fixtures';
import { screenTitle } from './routes';

const NETWORK = { timeout: 20_000 };

type FleetCar = {
  id: string;
  name: string;
  lat: number;
  long: number;
  updatedAt: string | null;
  carType: string | null;
  franchiseId: string | null;
};

async function fleetOf(request: APIRequestContext, session: Session): Promise<FleetCar[]> {
  const response = await request.get('/api/fleet', { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: FleetCar[] }).data;
}

/** The map as drawn: how many single markers and clusters the canvas shows (a canvas has no elements). */
async function drawn(page: Page) {
  const map = page.locator('.fleet-map');
  const [markers, clusters] = await Promise.all([
    map.getAttribute('data-markers'),
    map.getAttribute('data-clusters'),
  ]);
  return { markers: Number(markers ?? 0), clusters: Number(clusters ?? 0) };
}

/** The freshness counts of the legend, added up: the cars the filters let through. */
async function legendTotal(page: Page) {
  let total = 0;
  for (const freshness of ['live', 'stale', 'offline', 'unknown']) {
    total += Number((await page.getByTestId(`fleet-count-${freshness}`).textContent())!.replaceAll(',', ''));
  }
  return total;
}

async function openFleet(page: Page) {
  await page.goto('/fleet');
  await expect(screenTitle(page, 'Fleet map')).toBeVisible(NETWORK);
  // The server's push is open.
  await expect(page.getByTestId('fleet-mode')).toHaveText('Live', NETWORK);
  await expect(page.getByText('Loading the fleet...')).toHaveCount(0, NETWORK);
}

/** Finds a car through the search box and flies to it; answers the card the map opens on it. */
async function findCar(page: Page, car: FleetCar) {
  await page.getByRole('textbox', { name: 'Find a car by driver name or vehicle number' }).fill(car.name);
  const results = page.getByRole('list', { name: 'Cars found' });
  await results.getByRole('button', { name: car.name }).first().click();
  const card = page.getByTestId('fleet-focus');
  await expect(card).toContainText(car.name, NETWORK);
  return card;
}

for (const role of ROLES) {
  test.describe(`fleet map as ${role}`, () => {
    test.use({ role });

    test('shows every car of its scope, and no other, with no map tiles reachable', async ({
      page,
      request,
      session,
    }) => {
      const mine = await fleetOf(request, session!);
      expect(mine.length).toBeGreaterThan(0);
      await openFleet(page);

      // The tiles cannot load in the test (no internet), yet the cars are drawn.
      await expect
        .poll(async () => (await drawn(page)).markers + (await drawn(page)).clusters, NETWORK)
        .toBeGreaterThan(0);
      await expect.poll(() => legendTotal(page), NETWORK).toBe(mine.length);

      if (role !== 'admin') {
        const admin = await signInThroughApi(request, 'admin');
        const everyone = await fleetOf(request, admin);
        expect(everyone.length).toBeGreaterThan(mine.length);
        const foreign = everyone.find((car) => !mine.some((own) => own.id === car.id))!;
        // Not in the list of cars in view, whatever the view.
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await page.getByRole('button', { name: 'Zoom out' }).click();
        await expect(page.locator(`a[href="/drivers/${foreign.id}"]`)).toHaveCount(0);
      }
    });

    test('filters by car type and by last report', async ({ page, request, session }) => {
      const mine = await fleetOf(request, session!);
      const type = mine.find((car) => car.carType)!.carType!;
      const label = { mini: 'Mini', sedan: 'Sedan', suv: 'SUV', erickshaw: 'E-Rickshaw', auto: 'Auto' }[
        type
      ]!;
      await openFleet(page);

      await page.getByLabel('Car type').selectOption({ label });
      const ofType = mine.filter((car) => car.carType === type).length;
      await expect.poll(() => legendTotal(page), NETWORK).toBe(ofType);
      await expect(page.getByText(`${ofType} of ${mine.length} cars match the filters`)).toBeVisible();

      await page.getByLabel('Car type').selectOption({ label: 'Any' });
      await page.getByLabel('Last report', { exact: true }).selectOption({ label: 'Offline' });
      // Offline: no report for 30 minutes (a car may cross that line while the test runs).
      const offline = mine.filter(
        (car) => car.updatedAt && Date.now() - Date.parse(car.updatedAt) > 30 * 60_000,
      );
      await expect
        .poll(async () => Math.abs((await legendTotal(page)) - offline.length) <= 2, NETWORK)
        .toBe(true);
      await expect(page.getByTestId('fleet-count-live')).toHaveText('0');
      await expect(page.getByTestId('fleet-count-stale')).toHaveText('0');
    });

    test('a search flies to the car, and a click on it opens the driver’s dashboard', async ({
      page,
      request,
      session,
    }) => {
      const car = (await fleetOf(request, session!)).at(-1)!;
      await openFleet(page);
      await findCar(page, car);
      // Flown in close: the car is a marker of its own, listed among the cars in view.
      await expect.poll(async () => (await drawn(page)).markers, NETWORK).toBeGreaterThan(0);
      await expect(page.getByRole('link', { name: car.name, exact: true })).toBeVisible();

      // The car sits at the centre of the map once the flight ends.
      const map = page.locator('.fleet-map');
      await page.waitForTimeout(1200);
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await expect(page).toHaveURL(new RegExp(`/drivers/${car.id}$`), NETWORK);
      await expect(page.getByRole('heading', { name: car.name }).first()).toBeVisible(NETWORK);
    });
  });
}

test.describe('fleet map without a tile server', () => {
  test.use({ role: 'admin' });

  test("draws India's states and major cities, and asks the tile server once", async ({ page }) => {
    // The tests run without internet: no tile server answers.
    const tileRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/\d+\/\d+\/\d+\.png/.test(request.url())) tileRequests.push(request.url());
    });
    const failedLoads: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && message.text().startsWith('Failed to load resource'))
        failedLoads.push(message.text());
    });
    await openFleet(page);
    await expect.poll(() => page.locator('path.india-state').count(), NETWORK).toBeGreaterThanOrEqual(36);
    await expect(page.locator('.india-city-label', { hasText: 'New Delhi' })).toBeVisible(NETWORK);
    // Moving the map asks for no tile either.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.waitForTimeout(1000);
    expect(tileRequests).toHaveLength(1);
    expect(failedLoads.length).toBeLessThanOrEqual(1);
  });
});

test.describe('fleet map, live', () => {
  test.use({ role: 'city_dealer' });

  test('a position the driver app reports moves the car without a reload', async ({
    page,
    request,
    session,
  }) => {
    const car = (await fleetOf(request, session!))[0]!;
    await openFleet(page);
    const card = await findCar(page, car);
    await page.waitForTimeout(1200);
    const before = (await card.boundingBox())!;
    // A reload would lose this mark.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // What the driver app does: a device token issued by staff, then a report with it.
    const issued = await request.post(`/api/drivers/driver/${car.id}/device-tokens`, {
      headers: authHeader(session),
      data: { label: 'Fleet map browser test phone' },
    });
    expect(issued.status(), await issued.text()).toBe(201);
    const { token } = ((await issued.json()) as { data: { token: string } }).data;
    const reported = await request.post('/api/driver-app/location', {
      headers: { authorization: `Bearer ${token}` },
      // About 250 m north-east: well inside the view at this zoom.
      data: { lat: car.lat + 0.002, long: car.long + 0.002 },
    });
    expect(reported.status(), await reported.text()).toBe(204);

    await expect(page.getByTestId('fleet-focus-status')).toContainText(
      /Live · (just now|\d+ s ago)/,
      NETWORK,
    );
    // The tab's one stream carries the fleet beside the alerts and the inbox.
    await expect.poll(() => openStreams(page)).toEqual(['/api/sos/stream?fleet=true']);
    const after = (await card.boundingBox())!;
    // North is up and east is right: the card (and the car under it) moved up and to the right.
    expect(after.x - before.x).toBeGreaterThan(30);
    expect(before.y - after.y).toBeGreaterThan(30);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  });
});

test.describe('fleet map on a phone', { tag: '@phone' }, () => {
  test.use({ role: 'franchise' as Role });

  test('fits the screen, with the filters behind a button and the list under the map', async ({ page }) => {
    await openFleet(page);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expect(page.getByRole('button', { name: 'Filters' })).toBeVisible();
    await expect(page.locator('.fleet-map')).toBeInViewport();
    await expect(page.getByRole('heading', { name: /^In view \(\d+\)$/ })).toBeAttached();
  });
});
