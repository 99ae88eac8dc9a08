import { readFile } from 'node:fs/promises';
import type { Download, Page } from '@playwright/test';
import { authHeader, expect, test, type Session } from './fixtures';

/**
 * CSV exports as a user makes them: the list filtered on screen, "Export CSV", and the file the
 * browser's own download manager saved, compared row by row with the list on screen.
 */

const NETWORK = { timeout: 20_000 };

/** The records of a CSV file (RFC 4180), without its byte-order mark. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (quoted) {
      if (character !== '"') field += character;
      else if (text[i + 1] === '"') field += text[++i];
      else quoted = false;
    } else if (character === '"') quoted = true;
    else if (character === ',') {
      record.push(field);
      field = '';
    } else if (character === '\r' && text[i + 1] === '\n') {
      records.push([...record, field]);
      record = [];
      field = '';
      i++;
    } else field += character;
  }
  return records;
}

/** Clicks "Export CSV" and answers the download with its rows, keyed by the header row. */
async function exportCsv(page: Page): Promise<{ download: Download; rows: Record<string, string>[] }> {
  const downloading = page.waitForEvent('download', NETWORK);
  await page.getByRole('button', { name: 'Export CSV', exact: true }).click();
  const download = await downloading;
  const text = await readFile((await download.path())!, 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const [header, ...records] = parseCsv(text.slice(1));
  return {
    download,
    rows: records.map((record) => Object.fromEntries(header!.map((name, i) => [name, record[i] ?? '']))),
  };
}

/** The trip list on screen, every page loaded, as title, pick-up, destination and status. */
async function tripsOnScreen(page: Page): Promise<string[][]> {
  const loadMore = page.getByRole('button', { name: 'Load more trips' });
  while (await loadMore.isVisible()) {
    await loadMore.click();
    await expect(loadMore).not.toHaveAttribute('data-loading', 'true', NETWORK);
  }
  return page
    .getByRole('table', { name: 'List of Trips' })
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => {
        const cells = Array.from(row.querySelectorAll('td'));
        const title = cells[0]?.querySelector('div')?.textContent ?? '';
        // The spec's columns among the list's: pick-up, destination and status.
        return [title, ...[2, 3, 7].map((index) => cells[index]?.textContent ?? '')];
      }),
    );
}

/** A trip title that a few trips of this session share: a search that fills a page or two. */
async function aSearch(page: Page, session: Session): Promise<string> {
  const response = await page.request.get('/api/trips?limit=50', { headers: authHeader(session) });
  expect(response.status()).toBe(200);
  const titles = Object.values(
    ((await response.json()) as { data: Record<string, { title: string }> }).data,
  ).map((trip) => trip.title);
  return titles[7]!;
}

/** The file's rows as the list shows them: an empty place is a dash on screen. */
const asOnScreen = (row: Record<string, string>) =>
  [row['Trip Title'], row['Pick-up Location'], row['Destination Location'], row.Status].map(
    (value) => value || '-',
  );

test.describe('trips export as admin', () => {
  test.use({ role: 'admin' });

  test('downloads the searched and filtered list as CSV, the same rows as on screen', async ({
    page,
    session,
  }) => {
    const search = await aSearch(page, session!);
    await page.goto('/trips');
    await page.getByPlaceholder('Search Trips').fill(search);
    const table = page.getByRole('table', { name: 'List of Trips' });
    await expect(table.locator('tbody tr').first()).toContainText(search, NETWORK);
    await expect(table.locator('tbody tr', { hasNotText: search })).toHaveCount(0, NETWORK);
    const screen = await tripsOnScreen(page);
    expect(screen.length).toBeGreaterThan(0);

    const { download, rows } = await exportCsv(page);
    expect(download.suggestedFilename()).toMatch(/^trips-\d{4}-\d{2}-\d{2}\.csv$/);
    // The download went by a single-use ticket in its address, never by the page's token.
    expect(new URL(download.url()).searchParams.get('ticket')).toMatch(/^[\w-]{43}$/);
    expect(new URL(download.url()).searchParams.get('q')).toBe(search);
    expect(rows.map(asOnScreen)).toEqual(screen);
    // Admins get the customer's phone number, as in the trip details.
    expect(Object.keys(rows[0]!)).toContain('Trip Phone Number');
    // The download left the list where it was: the same screen, the same search in its address.
    expect(new URL(page.url()).pathname).toBe('/trips');
    expect(new URL(page.url()).searchParams.get('q')).toBe(search);

    // A filter on screen narrows the file the same way.
    await page.getByRole('combobox', { name: 'Status', exact: true }).selectOption({ label: 'Completed' });
    await expect(table.locator('tbody tr', { hasNotText: 'Completed' })).toHaveCount(0, NETWORK);
    const completed = await tripsOnScreen(page);
    const filtered = await exportCsv(page);
    expect(filtered.rows.map(asOnScreen)).toEqual(completed);
    expect(filtered.rows.every((row) => row.Status === 'Completed')).toBe(true);
  });
});

/** Every trip id a city dealer or franchise may see, in list order, through its spec path. */
async function everyTripId(page: Page, session: Session): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const response = await page.request.post('/api/trips/filter-trips', {
      headers: authHeader(session),
      data: { limit: 200, ...(cursor ? { cursor } : {}) },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { data: Record<string, unknown>; nextCursor: string | null };
    ids.push(...Object.keys(body.data));
    cursor = body.nextCursor;
  } while (cursor);
  return ids;
}

test.describe('trips export on a phone', { tag: '@phone' }, () => {
  test.use({ role: 'franchise' });

  test('is in reach beside the title and holds only the franchise’s trips', async ({ page, session }) => {
    await page.goto('/trips');
    await expect(page.getByRole('table', { name: 'List of Trips' }).locator('tbody tr').first()).toBeVisible(
      NETWORK,
    );
    await expect(page.getByRole('button', { name: 'Export CSV', exact: true })).toBeInViewport();
    const { rows } = await exportCsv(page);
    expect(rows.map((row) => row.ID)).toEqual(await everyTripId(page, session!));
    expect(Object.keys(rows[0]!)).not.toContain('Trip Phone Number');
  });
});

test.describe('trips export in Hindi', () => {
  test.use({ role: 'city_dealer' });

  test('writes the header row and labels in the language of the screen', async ({ page }) => {
    await page.addInitScript(() => {
      if (location.protocol.startsWith('http')) localStorage.setItem('bmet-language', 'hi');
    });
    await page.goto('/trips');
    const downloading = page.waitForEvent('download', NETWORK);
    await page.getByRole('button', { name: 'CSV एक्सपोर्ट करें', exact: true }).click();
    const text = await readFile((await (await downloading).path())!, 'utf8');
    const [header, first] = parseCsv(text.slice(1));
    expect(header).toContain('स्थिति');
    expect(header).toContain('किराया (₹)');
    expect(first![header!.indexOf('स्थिति')]).toMatch(/[\u0900-\u097F]/);
  });
});
