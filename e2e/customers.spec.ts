import type { APIRequestContext, Page } from '@playwright/test';
import { authHeader, expect, phoneAsShown, test, type Session } from './fixtures';
import { screenTitle } from './routes';

/** The Customers screen (admins only) against the seeded demo customers; it only reads them. */

/** Lists wait on the API; the machine running the tests may be busy. */
const NETWORK = { timeout: 20_000 };

type Customer = { id: string; name: string; email: string | null; phoneNumber: string | null };
type CustomerDetail = Customer & {
  ratings: { customerName: string | null; description: string | null; rating: number | null }[];
};

/** The first `max` customers the API lists for a search, in list order, and how many match in all. */
async function fetchCustomers(request: APIRequestContext, session: Session, q?: string, max = 100) {
  const customers: Customer[] = [];
  let cursor: string | null = null;
  let total: number;
  do {
    const params: Record<string, string | number> = { limit: Math.min(200, max - customers.length) };
    if (q) params.q = q;
    if (cursor) params.cursor = cursor;
    const response = await request.get('/api/customers', { headers: authHeader(session), params });
    expect(response.status(), await response.text()).toBe(200);
    const page = (await response.json()) as {
      data: Record<string, Customer>;
      nextCursor: string | null;
      total: number;
    };
    customers.push(...Object.values(page.data));
    cursor = page.nextCursor;
    total = page.total;
  } while (cursor && customers.length < max);
  return { customers, total };
}

async function fetchCustomer(request: APIRequestContext, session: Session, id: string) {
  const response = await request.get(`/api/customers/${id}`, { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: CustomerDetail }).data;
}

const customerTable = (page: Page) => page.getByRole('table');
const bodyRows = (page: Page) => customerTable(page).locator('tbody tr');
const searchBox = (page: Page) => page.getByRole('textbox', { name: 'Search customers' });
const summary = (page: Page) => page.getByText(/^(Showing \d+ of [\d,]+ customers|No customers)/);
const loadMore = (page: Page) => page.getByRole('button', { name: 'Load more customers' });

/** A row's cells as the user reads them: '-' where the customer has no email or phone number. */
const cells = (c: Customer) => [c.name, c.email ?? '-', c.phoneNumber ?? '-'];

async function expectCustomers(page: Page, customers: Customer[]) {
  await expect(bodyRows(page)).toHaveText(
    customers.map((c) => cells(c).join('')),
    NETWORK,
  );
}

test.describe('customers as admin', () => {
  test.use({ role: 'admin' });

  test('shows Name, Email and Phone Number, 50 customers a page, and loads more', async ({
    page,
    request,
    session,
  }) => {
    const { customers, total } = await fetchCustomers(request, session!, undefined, 100);
    expect(total).toBeGreaterThan(100);

    await page.goto('/customers');
    await expect(screenTitle(page, 'Customers')).toBeVisible();
    await expect(customerTable(page).getByRole('columnheader')).toHaveText(
      ['Name', 'Email', 'Phone Number'],
      NETWORK,
    );
    await expectCustomers(page, customers.slice(0, 50));
    await expect(bodyRows(page).first().getByRole('cell')).toHaveText(cells(customers[0]!));
    await expect(summary(page)).toHaveText(`Showing 50 of ${total.toLocaleString('en-IN')} customers`);

    await loadMore(page).click();
    await expectCustomers(page, customers);
    await expect(summary(page)).toHaveText(`Showing 100 of ${total.toLocaleString('en-IN')} customers`);
  });

  test('search narrows the list on the server once typing pauses, and clearing it brings all back', async ({
    page,
    request,
    session,
  }) => {
    const term = 'sharma';
    const expected = await fetchCustomers(request, session!, term, 50);
    expect(expected.customers.length).toBeGreaterThan(1);
    expect(expected.total).toBeLessThan(50);
    for (const customer of expected.customers) expect(cells(customer).join(' ')).toMatch(/sharma/i);

    await page.goto('/customers');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    const queries: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === '/api/customers' && url.searchParams.has('q'))
        queries.push(url.searchParams.get('q')!);
    });

    await searchBox(page).pressSequentially(term, { delay: 40 });
    await expectCustomers(page, expected.customers);
    await expect(summary(page)).toHaveText(
      `Showing ${expected.total} of ${expected.total} customers`,
      NETWORK,
    );
    await expect(loadMore(page)).toHaveCount(0);
    // Debounced: not one request per key stroke, and the last one asks for the whole word.
    expect(queries.at(-1)).toBe(term);
    expect(queries.length).toBeLessThan(term.length);

    await searchBox(page).fill('nobody is called this');
    await expect(summary(page)).toHaveText('No customers match “nobody is called this”.', NETWORK);
    await expect(customerTable(page)).toHaveCount(0);

    await searchBox(page).fill('');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    await expect(loadMore(page)).toBeVisible();
  });

  test('clicking a row opens a popup with the customer and their ratings; Close closes it', async ({
    page,
    request,
    session,
  }) => {
    // A customer with a rated and an unrated entry, so the popup shows both kinds.
    const { customers } = await fetchCustomers(request, session!, undefined, 100);
    let customer: CustomerDetail | undefined;
    for (const candidate of customers.slice(50).filter((c) => c.email)) {
      const detail = await fetchCustomer(request, session!, candidate.id);
      if (detail.ratings.some((r) => r.rating === null) && detail.ratings.some((r) => r.rating !== null)) {
        customer = detail;
        break;
      }
    }
    expect(customer, 'the demo data has such a customer').toBeDefined();
    const c = customer!;

    await page.goto('/customers');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    // Found by email, which is unique, so the one row is this customer's.
    await searchBox(page).fill(c.email!);
    await expectCustomers(page, [c]);
    await bodyRows(page).first().click();

    const popup = page.getByRole('dialog', { name: c.name });
    await expect(popup).toBeVisible(NETWORK);
    await expect(popup.getByText(`Name: ${c.name}`, { exact: true })).toBeVisible();
    await expect(popup.getByText(`Email: ${c.email}`, { exact: true })).toBeVisible();
    await expect(
      popup.getByText(`Phone Number: ${c.phoneNumber ? phoneAsShown(c.phoneNumber) : '-'}`, { exact: true }),
    ).toBeVisible();
    await expect(popup.getByText('Ratings', { exact: true })).toBeVisible();

    const entries = popup.getByRole('list', { name: 'Ratings' }).getByRole('listitem');
    await expect(entries).toHaveCount(c.ratings.length);
    for (const [index, rating] of c.ratings.entries()) {
      const entry = entries.nth(index);
      await expect(entry).toContainText(rating.customerName ?? '-');
      if (rating.description) await expect(entry).toContainText(rating.description);
      if (rating.rating === null) {
        await expect(entry.getByText('Not rated', { exact: true })).toBeVisible();
        await expect(entry.getByRole('img')).toHaveCount(0);
      } else {
        await expect(entry.getByRole('img', { name: `${rating.rating} out of 5 stars` })).toBeVisible();
        await expect(entry.getByText('Not rated', { exact: true })).toHaveCount(0);
      }
    }

    await popup.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(popup).toBeHidden();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(bodyRows(page)).toHaveCount(1);
  });
});

test.describe('customers as city dealer', () => {
  test.use({ role: 'city_dealer' });

  test('opening /customers says the page is not for the role and shows no customer', async ({ page }) => {
    await page.goto('/customers');
    await expect(page.getByText('You do not have access to this page.')).toBeVisible(NETWORK);
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(searchBox(page)).toHaveCount(0);
  });
});
