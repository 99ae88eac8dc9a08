import type { APIRequestContext, Page } from '@playwright/test';
import { authHeader, expect, networkQuiet, ROLES, test, type Role, type Session } from './fixtures';
import { bringIntoView, screenTitle } from './routes';

/**
 * The dashboard of each role against the seeded demo data: the figures the API answers that role,
 * the period switch, a bar and a table link opening the filtered trip list, the charts each role
 * may see. Nothing here writes.
 */

const NETWORK = { timeout: 20_000 };

type Overview = { trips: number; completed: number; revenue: number; newCustomers: number | null };
type Day = {
  day: string;
  requested: number;
  assigned: number;
  started: number;
  completed: number;
  cancelled: number;
};

/** The date in India `daysAgo` days before today, as the dashboard counts days. */
const indianDate = (daysAgo = 0) =>
  new Date(Date.now() + 5.5 * 3_600_000 - daysAgo * 86_400_000).toISOString().slice(0, 10);
const lastDays = (days: number) => ({ from: indianDate(days - 1), to: indianDate(0) });
const grouped = (value: number) => new Intl.NumberFormat('en-IN').format(value);

async function stats<T>(
  request: APIRequestContext,
  session: Session | null,
  path: string,
  period: { from: string; to: string },
) {
  const response = await request.get(`/api/stats/${path}`, { headers: authHeader(session), params: period });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

const figure = (page: Page, name: string) => page.getByTestId(`figure-${name}-value`);

/** The trips of the trip list on screen: their status tags. */
const listedStatuses = (page: Page) => page.getByRole('table', { name: 'List of Trips' }).getByRole('row');

for (const role of ROLES) {
  test.describe(`as ${role}`, () => {
    test.use({ role });

    test('opens from the first link of the navigation and shows the figures of the last 7 days', async ({
      page,
      request,
      session,
    }) => {
      await page.goto('/welcome');
      const first = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link').first();
      await expect(first).toHaveText('Dashboard');
      await first.click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await expect(screenTitle(page, 'Dashboard')).toBeVisible();
      const overview = await stats<Overview>(request, session, 'overview', lastDays(7));
      await expect(figure(page, 'trips')).toHaveText(grouped(overview.trips), NETWORK);
      await expect(figure(page, 'completed')).toHaveText(grouped(overview.completed));
      await expect(figure(page, 'revenue')).toHaveText(/^₹[\d,]+(\.\d\d)?$/);
      await expect(page.getByTestId('figure-new-customers')).toHaveCount(
        overview.newCustomers === null ? 0 : 1,
      );
      await expect(page.getByRole('heading', { name: 'Trips per day' })).toBeVisible(NETWORK);
      await expect(page.getByRole('heading', { name: 'Trips and revenue by franchise' })).toHaveCount(
        role === 'franchise' ? 0 : 1,
      );
      await expect(page.getByRole('heading', { name: 'Trips and revenue by state' })).toHaveCount(
        role === 'admin' ? 1 : 0,
      );
    });

    test('switches the period and keeps it in the address', async ({ page, request, session }) => {
      await page.goto('/dashboard');
      await expect(figure(page, 'trips')).not.toBeEmpty(NETWORK);
      await page.getByText('30 days', { exact: true }).click();
      await expect(page).toHaveURL(/period=30d/);
      const month = await stats<Overview>(request, session, 'overview', lastDays(30));
      await expect(figure(page, 'trips')).toHaveText(grouped(month.trips), NETWORK);
      await page.getByText('Today', { exact: true }).click();
      const today = await stats<Overview>(request, session, 'overview', lastDays(1));
      await expect(figure(page, 'trips')).toHaveText(grouped(today.trips), NETWORK);
      await page.reload();
      await expect(figure(page, 'trips')).toHaveText(grouped(today.trips), NETWORK);
    });

    test('opens the trips of a day and status from its bar', async ({ page, request, session }) => {
      const period = lastDays(30);
      const days = await stats<Day[]>(request, session, 'daily', period);
      const busiest = days.reduce((best, day) => (day.completed > best.completed ? day : best));
      test.skip(busiest.completed === 0, 'no completed trip in the last 30 days of the demo data');
      await page.goto('/dashboard?period=30d');
      await page.getByTestId(`day-${busiest.day}-completed`).click();
      await expect(page).toHaveURL(`/trips?from=${busiest.day}&to=${busiest.day}&status=completed`);
      await expect(screenTitle(page, 'List of Trips')).toBeVisible();
      await expect(page.getByLabel('Status', { exact: true })).toHaveValue('completed');
      const rows = listedStatuses(page);
      await expect(rows.nth(1)).toBeVisible(NETWORK);
      const shown = Math.min(busiest.completed, 50);
      await expect(rows).toHaveCount(shown + 1);
    });

    test('gives each chart its numbers as a table, whose links open the trip list', async ({
      page,
      request,
      session,
    }) => {
      const hours = await stats<{ hour: number; trips: number }[]>(request, session, 'hours', lastDays(7));
      await page.goto('/dashboard');
      const card = page.getByRole('region', { name: 'Busiest hours' });
      // A chart below the screen is asked for once it comes near it.
      await bringIntoView(card);
      await expect(card.getByRole('img', { name: /^Busiest hours: chart/ })).toBeVisible(NETWORK);
      await card.getByRole('button', { name: 'Show the numbers' }).click();
      const table = card.getByRole('table', { name: 'Busiest hours' });
      await expect(table.getByRole('row')).toHaveCount(25);
      const busiest = hours.reduce((best, hour) => (hour.trips > best.trips ? hour : best));
      const row = table.getByRole('row').nth(busiest.hour + 1);
      await expect(row.getByRole('cell').nth(1)).toHaveText(grouped(busiest.trips));
      await row.getByRole('link').click();
      await expect(page).toHaveURL(new RegExp(`/trips\\?from=.+&to=.+&hour=${busiest.hour}$`));
      await expect(page.getByTestId('linked-filters').getByRole('button')).toHaveAccessibleName(
        /^Remove the filter Hour: /,
      );
    });
  });
}

test.describe('as city_dealer', () => {
  test.use({ role: 'city_dealer' satisfies Role });

  test("opens a franchise's trips from its bar, named on the trip list", async ({
    page,
    request,
    session,
  }) => {
    const { rows } = await stats<{ rows: { franchiseId: string | null; name: string | null }[] }>(
      request,
      session,
      'franchises',
      lastDays(7),
    );
    const franchise = rows.find((row) => row.franchiseId)!;
    await page.goto('/dashboard');
    await bringIntoView(page.getByRole('region', { name: 'Trips and revenue by franchise' }));
    await page.getByTestId(`bar-${franchise.franchiseId}`).click();
    await expect(page).toHaveURL(new RegExp(`franchiseId=${franchise.franchiseId}`));
    const chip = page.getByRole('button', { name: `Remove the filter Franchise: ${franchise.name}` });
    await expect(chip).toBeVisible();
    await expect(listedStatuses(page).nth(1)).toBeVisible(NETWORK);
    await chip.click();
    await expect(chip).toHaveCount(0);
  });
});

test.describe('as admin, on a short screen', () => {
  test.use({ role: 'admin' satisfies Role, viewport: { width: 390, height: 700 } });

  test('shows the figures at once and asks for a chart below the screen when it comes near, or a key is pressed', async ({
    page,
  }) => {
    const asked: string[] = [];
    page.on('request', (request) => {
      const chart = /\/api\/stats\/([a-z-]+)/.exec(request.url())?.[1];
      if (chart) asked.push(chart);
    });
    await page.goto('/dashboard');
    await expect(page.getByTestId('figure-trips')).toContainText('Trips');
    await expect(figure(page, 'trips')).toHaveText(/^[\d,]+$/, NETWORK);
    await networkQuiet(page);
    const states = page.getByRole('region', { name: 'Trips and revenue by state' });
    await expect(states).toHaveAttribute('aria-busy', 'true');
    expect(asked).not.toContain('states');

    // Tab alone finds nothing to focus in a waiting card: a key pressed draws every chart.
    await page.keyboard.press('Tab');
    await expect(states.getByRole('button', { name: 'Show the numbers' })).toBeVisible(NETWORK);
    expect(asked).toContain('states');
  });
});
