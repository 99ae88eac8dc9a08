import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { authHeader, expect, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/**
 * Sorting the lists and keeping their view in the address: a column's heading or the Sort choice
 * sorts as the API sorts, paging goes on in that order, and a link, a reload or Back shows the
 * same view again. Everything here reads, but for the city dealers it creates with a tag of its own.
 */

/** Lists wait on the API; the machine running the tests may be busy. */
const NETWORK = { timeout: 20_000 };

type Query = Record<string, string | number | boolean>;

/** One page of a list as the API answers it (rows keyed by id in list order, or an array). */
async function listPage<T>(
  request: APIRequestContext,
  session: Session,
  path: string,
  query: Query,
): Promise<{ rows: T[]; nextCursor: string | null }> {
  const response = await request.get(path, { headers: authHeader(session), params: query });
  expect(response.status(), await response.text()).toBe(200);
  const page = (await response.json()) as { data: Record<string, T> | T[]; nextCursor: string | null };
  return { rows: Object.values(page.data), nextCursor: page.nextCursor };
}

/** The heading of a column and its sort button. */
const header = (table: Locator, name: string) => table.getByRole('columnheader', { name, exact: true });
const sortChoice = (page: Page) => page.getByRole('combobox', { name: 'Sort', exact: true });

/** Sorts by a column's heading and waits until the address says so. */
async function sortByHeading(page: Page, table: Locator, name: string, expected: RegExp) {
  await header(table, name).getByRole('button').click();
  await expect(page).toHaveURL(expected);
}

test.describe('the driver list, sorted, as a city dealer', () => {
  // A dealer's drivers: no other test deletes or moves them, so the answers below stay the same.
  test.use({ role: 'city_dealer' });

  test('sorts by name from its heading (mouse and keyboard) and by age from the Sort choice, page after page', async ({
    page,
    request,
    session,
  }) => {
    type Driver = { id: string; name: string };
    const names = async (query: Query) =>
      (await listPage<Driver>(request, session!, '/api/city_dealer', { limit: 200, ...query })).rows.map(
        (driver) => driver.name,
      );
    const table = page.getByRole('table', { name: 'Driver List' });
    const nameCells = table.locator('tbody tr td:first-child > span:first-child');
    const name = header(table, 'Name');

    const byName = await names({});
    expect(byName.length, 'the demo dealer has more than a page of drivers').toBeGreaterThan(50);

    await page.goto('/drivers');
    await expect(name).toHaveAttribute('aria-sort', 'ascending', NETWORK);
    await expect(nameCells).toHaveText(byName.slice(0, 50), NETWORK);

    await sortByHeading(page, table, 'Name', /\/drivers\?sort=name&order=desc$/);
    await expect(name).toHaveAttribute('aria-sort', 'descending');
    await expect(nameCells).toHaveText((await names({ sort: 'name', order: 'desc' })).slice(0, 50), NETWORK);

    // The heading is a button: the keyboard turns the order round again, back to the list's own.
    await name.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/drivers$/);
    await expect(name).toHaveAttribute('aria-sort', 'ascending');
    await expect(nameCells).toHaveText(byName.slice(0, 50), NETWORK);

    // When a driver joined is no column: the Sort choice beside the search sorts by it.
    await sortChoice(page).selectOption({ label: 'Newest first' });
    await expect(page).toHaveURL(/\/drivers\?sort=createdAt&order=desc$/);
    await expect(name).toHaveAttribute('aria-sort', 'none');
    const newest = await names({ sort: 'createdAt', order: 'desc' });
    await expect(nameCells).toHaveText(newest.slice(0, 50), NETWORK);
    // The second page follows the first in the same order: every driver once, none left out.
    await page.getByRole('button', { name: 'Load more drivers' }).click();
    await expect(nameCells).toHaveText(newest, NETWORK);

    // Back returns to the view before, with its order.
    await page.goBack();
    await expect(page).toHaveURL(/\/drivers$/);
    await expect(sortChoice(page)).toHaveValue('name:asc');
    await expect(nameCells).toHaveText(byName.slice(0, 50), NETWORK);
  });
});

test.describe('the trip list, sorted and filtered, as an admin', () => {
  test.use({ role: 'admin' });

  type Trip = { id: string; title: string };
  const table = (page: Page) => page.getByRole('table', { name: 'List of Trips' });
  const titles = (page: Page) => table(page).locator('tbody tr td:first-child > div:first-child');

  test('sorts by status from its heading and by fare from the Sort choice; loading more neither repeats nor skips a trip', async ({
    page,
    request,
    session,
  }) => {
    const trips = async (query: Query, limit = 50) =>
      (await listPage<Trip>(request, session!, '/api/trips', { limit, ...query })).rows.map((t) => t.title);
    const status = header(table(page), 'Status');

    await page.goto('/trips');
    await expect(status).toHaveAttribute('aria-sort', 'none', NETWORK);
    await expect(titles(page)).toHaveCount(50, NETWORK);

    await sortByHeading(page, table(page), 'Status', /\/trips\?sort=status&order=asc$/);
    await expect(status).toHaveAttribute('aria-sort', 'ascending');
    await expect(titles(page)).toHaveText(await trips({ sort: 'status', order: 'asc' }), NETWORK);
    // 'Most Recent Trip' names the newest trip, which heads the list only in its own order.
    await expect(table(page).getByText('Most Recent Trip', { exact: true })).toHaveCount(0);

    await sortByHeading(page, table(page), 'Status', /\/trips\?sort=status&order=desc$/);
    await expect(status).toHaveAttribute('aria-sort', 'descending');
    await expect(titles(page)).toHaveText(await trips({ sort: 'status', order: 'desc' }), NETWORK);

    await sortChoice(page).selectOption({ label: 'Highest fare first' });
    await expect(page).toHaveURL(/\/trips\?sort=price&order=desc$/);
    await expect(status).toHaveAttribute('aria-sort', 'none');
    // Two pages of 50 on screen against one page of 100 from the API: the same trips in the same order.
    const dearest = await trips({ sort: 'price', order: 'desc' }, 100);
    await expect(titles(page)).toHaveText(dearest.slice(0, 50), NETWORK);
    await page.getByRole('button', { name: 'Load more trips' }).click();
    await expect(titles(page)).toHaveText(dearest, NETWORK);
  });

  test('a filtered and sorted view opens from its address, survives a reload, and Back returns to it', async ({
    page,
    request,
    session,
  }) => {
    const view = { status: 'completed', carType: 'sedan', sort: 'price', order: 'asc' };
    const address = `/trips?${new URLSearchParams(view).toString()}`;
    const expected = (await listPage<Trip>(request, session!, '/api/trips', { limit: 50, ...view })).rows;
    expect(expected.length, 'the demo data has completed sedan trips').toBeGreaterThan(1);
    const paid = (await listPage<Trip>(request, session!, '/api/trips', { limit: 50, ...view, paid: true }))
      .rows;
    // The payment filter makes a difference the screen can show.
    expect(paid.map((t) => t.id)).not.toEqual(expected.map((t) => t.id));

    const expectView = async () => {
      await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('completed');
      await expect(page.getByRole('combobox', { name: 'Car type', exact: true })).toHaveValue('sedan');
      await expect(page.getByRole('combobox', { name: 'Payment', exact: true })).toHaveValue('');
      await expect(sortChoice(page)).toHaveValue('price:asc');
      await expect(titles(page)).toHaveText(
        expected.map((t) => t.title),
        NETWORK,
      );
    };

    await page.goto('/welcome');
    await page.goto(address);
    await expect(screenTitle(page, 'List of Trips')).toBeVisible();
    await expectView();
    await page.reload();
    await expectView();

    // A filter changed is a new entry: Back returns to the view before it.
    await page.getByRole('combobox', { name: 'Payment', exact: true }).selectOption({ label: 'Paid' });
    await expect(page).toHaveURL(`${address}&paid=true`);
    await expect(titles(page)).toHaveText(
      paid.map((t) => t.title),
      NETWORK,
    );
    await page.goBack();
    await expect(page).toHaveURL(address);
    await expectView();

    // A trip opened and closed keeps the rest of the address.
    await table(page).getByRole('button', { name: 'View Details' }).first().click();
    await expect(page).toHaveURL(`/trips/${expected[0]!.id}?${new URLSearchParams(view).toString()}`);
    await expect(page.getByRole('region', { name: 'Trip details' })).toBeVisible(NETWORK);
    await page.getByRole('region', { name: 'Trip details' }).getByRole('button', { name: 'Close' }).click();
    await expect(page).toHaveURL(address);
    await expectView();

    // Back past the list leaves it for the screen before.
    await page.goBack();
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(/\/welcome$/);
  });

  test('an address with values the list does not know shows the list as it is by default', async ({
    page,
    request,
    session,
  }) => {
    const newest = (await listPage<Trip>(request, session!, '/api/trips', { limit: 50 })).rows;
    await page.goto('/trips?status=finished&paid=maybe&from=2026-02-31&sort=password&order=sideways');
    await expect(titles(page)).toHaveText(
      newest.map((t) => t.title),
      NETWORK,
    );
    await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toHaveValue('');
    await expect(sortChoice(page)).toHaveValue('createdAt:desc');
    await expect(table(page).getByText('Most Recent Trip', { exact: true })).toHaveCount(1);
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});

test.describe('the customer list, searched, sorted and with a customer open, as an admin', () => {
  test.use({ role: 'admin' });

  test('the search, sort and open customer live in the address', async ({ page, request, session }) => {
    type Customer = { id: string; name: string };
    const view = { q: 'ra', sort: 'name', order: 'desc' };
    const expected = (await listPage<Customer>(request, session!, '/api/customers', { limit: 50, ...view }))
      .rows;
    expect(expected.length).toBeGreaterThan(2);
    const table = page.getByRole('table', { name: 'Customers' });
    const names = table.locator('tbody tr td:first-child');

    await page.goto(`/customers?${new URLSearchParams(view).toString()}`);
    await expect(page.getByRole('textbox', { name: 'Search customers' })).toHaveValue('ra');
    await expect(header(table, 'Name')).toHaveAttribute('aria-sort', 'descending', NETWORK);
    await expect(names).toHaveText(
      expected.map((c) => c.name),
      NETWORK,
    );

    // The Sort choice is for phones here: on a wider screen the Name heading sorts.
    await expect(sortChoice(page)).toBeHidden();

    const chosen = expected[1]!;
    await table.locator('tbody tr').nth(1).click();
    await expect(page).toHaveURL((url) => url.searchParams.get('customer') === chosen.id);
    const popup = page.getByRole('dialog', { name: chosen.name });
    await expect(popup).toBeVisible(NETWORK);

    // A reload opens the same customer over the same list.
    await page.reload();
    await expect(page.getByRole('dialog', { name: chosen.name })).toBeVisible(NETWORK);
    await expect(names).toHaveText(
      expected.map((c) => c.name),
      NETWORK,
    );

    // Back closes it, and the list stays as it was.
    await page.goBack();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(
      (url) => !url.searchParams.has('customer') && url.searchParams.get('q') === 'ra',
    );
    await expect(page.getByRole('textbox', { name: 'Search customers' })).toHaveValue('ra');
    await expect(names).toHaveText(expected.map((c) => c.name));

    // Typing a search replaces the address's search without a new entry per key.
    await page.getByRole('textbox', { name: 'Search customers' }).fill('rao');
    await expect(page).toHaveURL((url) => url.searchParams.get('q') === 'rao', NETWORK);
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'name');
  });
});

test.describe('the city dealer list, sorted and filtered, as an admin', () => {
  test.use({ role: 'admin' });

  test('sorts by name and state, filters by state, and opens a dealer from the address', async ({
    page,
    request,
    session,
  }) => {
    const tag = randomUUID().slice(0, 8);
    const dealers = [
      { name: `Banyan Dealer ${tag}`, state: 'kerala' },
      { name: `Amla Dealer ${tag}`, state: 'goa' },
      { name: `Cedar Dealer ${tag}`, state: 'kerala' },
    ];
    const ids: Record<string, string> = {};
    for (const dealer of dealers) {
      const response = await request.post('/api/city_dealer/create', {
        headers: authHeader(session),
        data: {
          ...dealer,
          email: `${dealer.name.split(' ')[0]!.toLowerCase()}.${tag}@e2e.bookmyetaxi.test`,
          password: 'a-strong-e2e-passphrase',
        },
      });
      expect(response.status(), await response.text()).toBe(201);
      ids[dealer.name] = ((await response.json()) as { data: { uid: string } }).data.uid;
    }
    const [banyan, amla, cedar] = dealers.map((dealer) => dealer.name) as [string, string, string];
    /** The order the API answers for this search and these filters. */
    const answer = async (body: Record<string, string>) => {
      const response = await request.post('/api/city_dealer/getcitydealers', {
        headers: authHeader(session),
        data: { q: tag, ...body },
      });
      expect(response.status(), await response.text()).toBe(200);
      return Object.values(((await response.json()) as { data: Record<string, { name: string }> }).data).map(
        (dealer) => dealer.name,
      );
    };
    const table = page.getByRole('table');
    const names = table.locator('tbody tr td:first-child');

    await page.goto(`/cityDealer?q=${tag}`);
    // Newest first: the list's own order, with its notice on the newest.
    await expect(names).toHaveText([cedar, amla, banyan], NETWORK);
    expect(await answer({})).toEqual([cedar, amla, banyan]);
    await expect(table.locator('tbody tr').first()).toContainText(`New Dealer: ${cedar}`);

    await sortByHeading(page, table, 'Name', /sort=name&order=asc/);
    expect(await answer({ sort: 'name', order: 'asc' })).toEqual([amla, banyan, cedar]);
    await expect(names).toHaveText([amla, banyan, cedar], NETWORK);
    await expect(header(table, 'Name')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header(table, 'State')).toHaveAttribute('aria-sort', 'none');
    await expect(table.getByText(/^New Dealer: /)).toHaveCount(0);

    await sortByHeading(page, table, 'State', /sort=state&order=asc/);
    const byState = await answer({ sort: 'state', order: 'asc' });
    expect(byState[0]).toBe(amla);
    await expect(names).toHaveText(byState, NETWORK);

    await page.getByRole('combobox', { name: 'State', exact: true }).selectOption({ label: 'Kerala' });
    await expect(page).toHaveURL(/state=kerala/);
    await expect(names).toHaveText(await answer({ state: 'kerala', sort: 'state', order: 'asc' }), NETWORK);
    await page.goBack();
    await expect(page.getByRole('combobox', { name: 'State', exact: true })).toHaveValue('');
    await expect(names).toHaveCount(3, NETWORK);

    // A dealer opened from the address, over the sorted list.
    await page.goto(`/cityDealer?q=${tag}&sort=name&order=desc&dealer=${ids[banyan]}`);
    await expect(names).toHaveText([cedar, banyan, amla], NETWORK);
    const popup = page.getByRole('dialog', { name: banyan });
    await expect(popup).toBeVisible(NETWORK);
    await expect(popup).toContainText('Kerala');
    await page.keyboard.press('Escape');
    await expect(popup).toBeHidden();
    await expect(page).toHaveURL(
      (url) => !url.searchParams.has('dealer') && url.searchParams.get('sort') === 'name',
    );

    // A link to a dealer the list does not show (another search here; further down a long list
    // alike) still opens it.
    await page.goto(`/cityDealer?q=no-such-dealer-${tag}&dealer=${ids[cedar]}`);
    await expect(page.getByRole('dialog', { name: cedar })).toBeVisible(NETWORK);
    await expect(names).toHaveCount(0);
  });

  test('a link to a franchise the loaded list does not hold opens it', async ({ page, request, session }) => {
    const tag = randomUUID().slice(0, 8);
    const name = `Far Franchise ${tag}`;
    const response = await request.post('/api/franchise/create', {
      headers: authHeader(session),
      data: {
        name,
        email: `far.${tag}@e2e.bookmyetaxi.test`,
        password: 'a-strong-e2e-passphrase',
        state: 'maharashtra',
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    const id = ((await response.json()) as { data: { uid: string } }).data.uid;
    await page.goto(`/displayFranchise?q=no-such-franchise-${tag}&franchise=${id}`);
    const popup = page.getByRole('dialog', { name });
    await expect(popup).toBeVisible(NETWORK);
    await page.keyboard.press('Escape');
    await expect(popup).toBeHidden();
    await expect(page).toHaveURL((url) => !url.searchParams.has('franchise'));
  });
});

test.describe('the audit trail and compliance, sorted, as an admin', () => {
  test.use({ role: 'admin' });

  test('the audit trail turns to oldest first from its When heading', async ({ page, request, session }) => {
    type Entry = { actor: { name: string; email: string } | null };
    // At least one change to list: a dealer created here.
    const tag = randomUUID().slice(0, 8);
    const created = await request.post('/api/city_dealer/create', {
      headers: authHeader(session),
      data: {
        name: `Audit Sort ${tag}`,
        email: `audit.sort.${tag}@e2e.bookmyetaxi.test`,
        state: 'goa',
        password: 'a-strong-e2e-passphrase',
      },
    });
    expect(created.status()).toBe(201);
    const table = page.getByRole('table', { name: 'Audit trail' });
    const rows = table.locator(':scope > tbody > tr');

    await page.goto('/audit');
    await expect(header(table, 'When')).toHaveAttribute('aria-sort', 'descending', NETWORK);
    const asked = page.waitForRequest((r) => new URL(r.url()).searchParams.get('order') === 'asc');
    await sortByHeading(page, table, 'When', /\/audit\?sort=at&order=asc$/);
    expect(new URL((await asked).url()).searchParams.get('sort')).toBe('at');
    await expect(header(table, 'When')).toHaveAttribute('aria-sort', 'ascending');
    // The oldest changes do not move while other tests add new ones.
    const oldest = (
      await listPage<Entry>(request, session!, '/api/audit', { limit: 50, sort: 'at', order: 'asc' })
    ).rows;
    await expect(rows).toHaveCount(oldest.length, NETWORK);
    const first = oldest[0]!.actor;
    if (first) await expect(rows.first()).toContainText(first.name || first.email);
  });

  test('a compliance view sorts by driver, and another view keeps that sort', async ({
    page,
    request,
    session,
  }) => {
    type Entry = { driverName: string };
    const names = async (query: Query) =>
      (await listPage<Entry>(request, session!, '/api/compliance', { limit: 50, ...query })).rows.map(
        (entry) => entry.driverName,
      );
    const summary = await request.get('/api/compliance/summary', { headers: authHeader(session) });
    const counts = ((await summary.json()) as { data: { within30: number; awaitingReview: number } }).data;
    test.skip(
      counts.within30 === 0 || counts.awaitingReview === 0,
      'the demo data has documents expiring within 30 days and documents awaiting review',
    );
    const table = page.getByRole('table');
    const driverCells = table.locator('tbody tr td:first-child');

    await page.goto('/compliance?view=30');
    await expect(header(table, 'Expires on')).toHaveAttribute('aria-sort', 'ascending', NETWORK);
    await sortByHeading(page, table, 'Driver', /\/compliance\?view=30&sort=driverName&order=asc$/);
    await expect(header(table, 'Driver')).toHaveAttribute('aria-sort', 'ascending');
    await expect(header(table, 'Expires on')).toHaveAttribute('aria-sort', 'none');
    // Other tests review documents: compare again after a reload if one changed in between.
    await expect(async () => {
      await page.reload();
      await expect(driverCells).toHaveText(await names({ within: 30, sort: 'driverName', order: 'asc' }), {
        timeout: 5_000,
      });
    }).toPass(NETWORK);

    await page.getByRole('button', { name: /^Awaiting review/ }).click();
    await expect(page).toHaveURL(/\/compliance\?view=review&sort=driverName&order=asc$/);
    await expect(header(table, 'Driver')).toHaveAttribute('aria-sort', 'ascending', NETWORK);
    await expect(header(table, 'Uploaded')).toHaveAttribute('aria-sort', 'none');
  });
});

test.describe('sorting on a phone', { tag: '@phone' }, () => {
  test.use({ role: 'admin' });

  test('the Sort choice stands in for the headings the cards do not show', async ({
    page,
    request,
    session,
  }) => {
    type Customer = { name: string };
    await page.goto('/customers');
    await expect(sortChoice(page)).toBeVisible(NETWORK);
    await sortChoice(page).selectOption({ label: 'Name Z–A' });
    await expect(page).toHaveURL(/\/customers\?sort=name&order=desc$/);
    const expected = (
      await listPage<Customer>(request, session!, '/api/customers', {
        limit: 50,
        sort: 'name',
        order: 'desc',
      })
    ).rows;
    await expect(page.getByRole('table').locator('tbody tr td:first-child')).toHaveText(
      expected.map((c) => c.name),
      NETWORK,
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
