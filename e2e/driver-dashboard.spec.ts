import type { APIRequestContext, Page } from '@playwright/test';
import {
  ACCOUNTS,
  authHeader,
  expect,
  fetchDrivers,
  networkQuiet,
  openStreams,
  phoneAsShown,
  signInThroughApi,
  test,
  type ListedDriver,
  type Session,
} from './fixtures';
import { bringSectionIntoView, everyPartDrawn } from './routes';

/**
 * The driver dashboard behind 'More', against the seeded demo drivers. Tests run in parallel on
 * one server, so each test that changes a driver takes it from a group of drivers no other test
 * uses: the demo names franchises '<City> <Area> EV Cabs', and
 *   - drivers of Kolkata franchises: document review (a city dealer of Mumbai only reads one),
 *   - drivers of Chennai franchises: document upload,
 *   - drivers of New Delhi franchises: live position,
 *   - drivers of Bengaluru franchises and drivers without a franchise: only read,
 * except the last driver without a franchise, which drivers.spec.ts deletes and restores.
 */

/** The dashboard waits on the API; the machine running the tests may be busy. */
const NETWORK = { timeout: 20_000 };

/** The spec's ten documents, in its order and with its labels. */
const DOCUMENT_LABELS = [
  'Aadhar Card',
  'Address Proof',
  'Driver Licence',
  'Fitness Certificate',
  'Identity Detail',
  'PAN Card',
  'Pollution Certificate',
  'RC Certificate',
  'Vehicle Audit',
  'Vehicle Permit',
];

const STATUS_LABELS = {
  not_submitted: 'Not submitted',
  submitted: 'Submitted',
  approved: 'Approved',
  rejected: 'Rejected',
} as const;

type DriverDocument = {
  key: string;
  label: string;
  status: keyof typeof STATUS_LABELS;
  hasImage: boolean;
};
type HistoryEntry = { customerName: string | null; pickUpLocation: string | null };
type RatingEntry = { customerName: string | null; description: string | null; rating: number | null };
type Ratings = { data: RatingEntry[]; summary: { average: number | null; count: number } };

async function getData<T>(request: APIRequestContext, session: Session, path: string): Promise<T> {
  const response = await request.get(path, { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as T;
}

const documentsOf = async (request: APIRequestContext, session: Session, id: string) =>
  (await getData<{ data: DriverDocument[] }>(request, session, `/api/drivers/driver/${id}/documents`)).data;

/** The first driver of a group for which `accept` holds, in list order. */
async function pick(
  drivers: ListedDriver[],
  accept: (driver: ListedDriver) => boolean | Promise<boolean>,
): Promise<ListedDriver> {
  for (const driver of drivers) if (await accept(driver)) return driver;
  throw new Error('The demo data has no such driver.');
}

const ofCity = (drivers: ListedDriver[], city: string) =>
  drivers.filter((d) => d.franchiseName?.startsWith(`${city} `));
/** Drivers without a franchise, less the one drivers.spec.ts deletes. */
// The last two drivers without a franchise are deleted and restored by drivers.spec.ts and keyboard.spec.ts.
const unassigned = (drivers: ListedDriver[]) => drivers.filter((d) => !d.franchiseId).slice(0, -2);

const section = (page: Page, title: string) => page.getByRole('region', { name: title });
const documentRow = (page: Page, label: string) =>
  section(page, 'Document details')
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: label, exact: true }) });
const statusCell = (page: Page, label: string) => documentRow(page, label).getByRole('cell').nth(2);
const coordinates = (position: { lat: number; long: number }) =>
  `(${position.lat.toFixed(5)}, ${position.long.toFixed(5)})`;

/** A driver's file with every section drawn (they are drawn as they come near the screen). */
async function openDashboard(page: Page, driver: ListedDriver) {
  await page.goto(`/drivers/${driver.id}`);
  await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
  await everyPartDrawn(page);
}

test.describe('driver dashboard as admin', () => {
  test.use({ role: 'admin' });

  test('More opens the four sections: information with the map, documents, bookings and ratings', async ({
    page,
    request,
    session,
  }) => {
    const drivers = await fetchDrivers(request, session!);
    let history: { data: HistoryEntry[]; nextCursor: string | null } | undefined;
    let ratings: Ratings | undefined;
    // A driver with every kind of entry: bookings, and ratings of which one was given no stars.
    const driver = await pick(ofCity(drivers, 'Bengaluru'), async (d) => {
      if (!d.email || !d.phoneNumber || !d.position || !d.vehicleNumber) return false;
      history = await getData(request, session!, `/api/drivers/driver/${d.id}/history?limit=10`);
      ratings = await getData(request, session!, `/api/drivers/driver/${d.id}/ratings?limit=10`);
      return history!.data.length > 0 && ratings!.data.some((r) => r.rating === null);
    });
    const documents = await documentsOf(request, session!, driver.id);

    await page.goto('/drivers');
    await page.getByRole('textbox', { name: 'Search drivers' }).fill(driver.vehicleNumber!);
    const row = page.locator('tbody tr').filter({ hasText: driver.name });
    await expect(page.locator('tbody tr')).toHaveCount(1, NETWORK);
    await row.getByRole('button', { name: 'More' }).click();
    await expect(page).toHaveURL(new RegExp(`/drivers/${driver.id}$`));
    await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
    await everyPartDrawn(page);
    // The spec's four sections, in its order (the screen may add its own after them).
    await expect(page.getByRole('heading', { level: 3 }).first()).toHaveText('Driver information', NETWORK);
    const sections = await page.getByRole('heading', { level: 3 }).allTextContents();
    expect(sections.slice(0, 4)).toEqual([
      'Driver information',
      'Document details',
      'Booking history',
      'Rating details',
    ]);

    await test.step('Driver information: name, email, phone and the map at the position', async () => {
      const info = section(page, 'Driver information');
      await expect(info).toContainText(`Name${driver.name}`);
      await expect(info).toContainText(`Email${driver.email}`);
      await expect(info).toContainText(`Phone${phoneAsShown(driver.phoneNumber!)}`);
      const map = info.locator('.leaflet-container');
      await expect(map).toBeVisible();
      expect((await map.boundingBox())?.height).toBeCloseTo(300, 0);
      // Tiles cannot load offline; the marker does not need them.
      await expect(map.locator('.leaflet-marker-icon')).toBeVisible();
      await expect(map.getByRole('button', { name: driver.name })).toBeVisible();
      await expect(info.getByTestId('position-age')).toHaveText(
        /^Last position (just now|\d+ (s|min|h|days) ago) \(/,
      );
      await expect(info.getByTestId('position-age')).toContainText(coordinates(driver.position!));
      await expect(info.getByTestId('location-unknown')).toHaveCount(0);
    });

    await test.step('Document details: the ten documents with image and status', async () => {
      const docs = section(page, 'Document details');
      await expect(docs.getByRole('columnheader')).toHaveText(['Document', 'Image', 'Status', 'Actions']);
      await expect(docs.locator('tbody tr td:first-child')).toHaveText(DOCUMENT_LABELS, NETWORK);
      for (const document of documents) {
        await expect(statusCell(page, document.label)).toContainText(STATUS_LABELS[document.status]);
        const image = documentRow(page, document.label).getByRole('cell').nth(1);
        if (document.hasImage)
          await expect(image.getByRole('img', { name: document.label })).toBeVisible(NETWORK);
        else await expect(image).toHaveText('No image');
      }
    });

    await test.step('Booking history: the spec’s columns, newest first, paged', async () => {
      const bookings = section(page, 'Booking history');
      await expect(bookings.getByRole('columnheader')).toHaveText([
        'Customer Name',
        'Pickup Location',
        'Destination Location',
        'Distance (km)',
        'Price',
        'Date and Time',
      ]);
      await expect(bookings.locator('tbody tr td:first-child')).toHaveText(
        history!.data.map((entry) => entry.customerName ?? '-'),
      );
      await expect(bookings.locator('tbody tr td:nth-child(2)')).toHaveText(
        history!.data.map((entry) => entry.pickUpLocation ?? '-'),
      );
      await expect(bookings.getByRole('button', { name: 'Load more bookings' })).toHaveCount(
        history!.nextCursor ? 1 : 0,
      );
    });

    await test.step('Rating details: stars or Not rated per entry, average and count', async () => {
      const { summary, data } = ratings!;
      const average = summary.average!.toFixed(1);
      const rated = data.filter((entry) => entry.rating !== null);
      const ratingDetails = section(page, 'Rating details');
      await expect(ratingDetails).toContainText(
        `${average} average from ${summary.count} rating${summary.count === 1 ? '' : 's'}`,
      );
      await expect(page.getByText(`★ ${average} (${summary.count})`)).toBeVisible();
      await expect(ratingDetails.getByText('Not rated', { exact: true })).toHaveCount(
        data.length - rated.length,
      );
      // Stars are named by their value: each rated entry's, and the average's above them.
      const stars = [...rated, { rating: summary.average }].map((entry) => `${entry.rating} out of 5 stars`);
      await expect(ratingDetails.getByRole('img', { name: /out of 5 stars$/ })).toHaveCount(stars.length);
      for (const name of new Set(stars)) {
        await expect(ratingDetails.getByRole('img', { name, exact: true })).toHaveCount(
          stars.filter((other) => other === name).length,
        );
      }
      for (const entry of data) {
        if (entry.customerName)
          await expect(ratingDetails.getByText(entry.customerName, { exact: true }).first()).toBeVisible();
        if (entry.description)
          await expect(ratingDetails.getByText(entry.description, { exact: true }).first()).toBeVisible();
      }
    });
  });

  test('a driver with little on record: No Info, no bookings, no ratings, location unknown', async ({
    page,
    request,
    session,
  }) => {
    const drivers = unassigned(await fetchDrivers(request, session!));
    const noEmail = await pick(drivers, (d) => !d.email);
    const nowhere = await pick(drivers, async (d) => {
      if (d.position) return false;
      const ratings = await getData<Ratings>(request, session!, `/api/drivers/driver/${d.id}/ratings`);
      return ratings.summary.count === 0;
    });

    await test.step('no email: No Info', async () => {
      await openDashboard(page, noEmail);
      await expect(section(page, 'Driver information')).toContainText('EmailNo Info');
    });

    await test.step('no position, bookings or ratings', async () => {
      // Holds the booking history back until its loading text has been seen.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname.endsWith('/history'),
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.goto(`/drivers/${nowhere.id}`);
      await expect(page.getByRole('heading', { name: nowhere.name, level: 2 })).toBeVisible(NETWORK);
      const bookings = section(page, 'Booking history');
      await bringSectionIntoView(bookings);
      await expect(bookings).toContainText('Loading booking history...');
      release();
      await expect(bookings).toContainText('No booking history available.', NETWORK);
      await expect(bookings.getByRole('table')).toHaveCount(0);

      const info = section(page, 'Driver information');
      await expect(info.getByTestId('location-unknown')).toContainText('Location unknown', NETWORK);
      await expect(info.getByTestId('position-age')).toHaveCount(0);
      // The default place of the spec (lat 20, long 20) still has the marker.
      await expect(info.locator('.leaflet-marker-icon')).toBeVisible();

      const ratings = section(page, 'Rating details');
      await bringSectionIntoView(ratings);
      await expect(ratings).toContainText('No ratings yet', NETWORK);
      await expect(ratings).toContainText('No rating details available.');
      await expect(page.getByText(/^★ /)).toHaveCount(0);
    });
  });

  test('without a tile server the map names the cities in its view, and more as it zooms out', async ({
    page,
    request,
    session,
  }) => {
    // The tests run without internet: the map draws India's borders and its cities' names.
    // A driver within a few kilometres of Bengaluru's centre (12.9716, 77.5946): its map names it.
    const driver = await pick(
      ofCity(await fetchDrivers(request, session!), 'Bengaluru'),
      (d) =>
        d.position !== null &&
        Math.abs(d.position.lat - 12.9716) < 0.05 &&
        Math.abs(d.position.long - 77.5946) < 0.1,
    );
    await openDashboard(page, driver);
    const map = section(page, 'Driver information').locator('.leaflet-container');
    await expect.poll(() => map.locator('path.india-state').count(), NETWORK).toBeGreaterThanOrEqual(36);
    const label = (city: string) => map.locator('.india-city-label', { hasText: city });
    // The names are drawn once the tile server has not answered; a city wide, only its own.
    await expect(label('Bengaluru')).toBeVisible(NETWORK);
    await expect(map.locator('.india-city-label')).toHaveCount(1);
    // None of India's far cities: Chennai is 290 km away, Delhi 1,700.
    await expect(label('Chennai')).toHaveCount(0);
    await expect(label('New Delhi')).toHaveCount(0);
    for (let zoom = 12; zoom > 6; zoom--) {
      await map.getByRole('button', { name: 'Zoom out' }).click();
      // Leaflet takes no other zoom while it animates one (a quarter of a second).
      await page.waitForTimeout(400);
    }
    await expect(label('Chennai')).toBeVisible(NETWORK);
    await expect(label('New Delhi')).toHaveCount(0);
  });

  test('clicking a document image opens it full screen; clicking the overlay closes it', async ({
    page,
    request,
    session,
  }) => {
    const drivers = ofCity(await fetchDrivers(request, session!), 'Bengaluru');
    let document: DriverDocument | undefined;
    const driver = await pick(drivers, async (d) => {
      document = (await documentsOf(request, session!, d.id)).find((doc) => doc.hasImage);
      return document !== undefined;
    });

    await openDashboard(page, driver);
    const overlay = page.getByTestId('image-zoom-overlay');
    await expect(overlay).toHaveCount(0);
    await section(page, 'Document details')
      .getByRole('button', { name: `Enlarge ${document!.label} image` })
      .click(NETWORK);
    await expect(overlay).toBeVisible();
    await expect(page.getByRole('dialog', { name: `${document!.label} image, enlarged` })).toBeVisible();
    const image = overlay.getByRole('img', { name: document!.label });
    await expect(image).toBeVisible();
    // Full screen: the overlay covers the whole window.
    const box = await overlay.boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 1366, height: 768 });
    // The image has loaded (it is drawn from the API's bytes, not a broken link).
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await overlay.click({ position: { x: 10, y: 10 } });
    await expect(overlay).toHaveCount(0);
  });

  test('approving a submitted document and rejecting another with a reason', async ({
    page,
    request,
    session,
  }) => {
    let submitted: DriverDocument[] = [];
    const driver = await pick(ofCity(await fetchDrivers(request, session!), 'Kolkata'), async (d) => {
      submitted = (await documentsOf(request, session!, d.id)).filter(
        (doc) => doc.status === 'submitted' && doc.hasImage,
      );
      return submitted.length >= 2;
    });
    const [approve, reject] = submitted as [DriverDocument, DriverDocument];
    const reason = 'The number plate cannot be read; please photograph it in daylight.';

    await openDashboard(page, driver);
    await expect(statusCell(page, approve.label)).toContainText('Submitted', NETWORK);
    await expect(statusCell(page, approve.label)).toContainText('awaiting review');

    await test.step(`approve ${approve.label}`, async () => {
      await documentRow(page, approve.label).getByRole('button', { name: 'Approve', exact: true }).click();
      await expect(page.getByText(`${approve.label} approved.`)).toBeVisible(NETWORK);
      await expect(statusCell(page, approve.label)).toContainText('Approved', NETWORK);
      await expect(statusCell(page, approve.label)).toContainText(`by ${ACCOUNTS.admin.displayName},`);
      await expect(
        documentRow(page, approve.label).getByRole('button', { name: 'Approve', exact: true }),
      ).toHaveCount(0);
    });

    await test.step(`reject ${reject.label} with a reason`, async () => {
      await documentRow(page, reject.label).getByRole('button', { name: 'Reject', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: `Reject ${reject.label}` });
      await expect(dialog).toBeVisible();
      // Without a reason the server refuses, and the dialog stays open saying why.
      await dialog.getByRole('button', { name: 'Reject document' }).click();
      await expect(dialog).toContainText('Give a reason of at least 3 characters.', NETWORK);
      await expect(statusCell(page, reject.label)).toContainText('Submitted');
      await dialog.getByRole('textbox', { name: 'Reason' }).fill(reason);
      await dialog.getByRole('button', { name: 'Reject document' }).click();
      await expect(dialog).toBeHidden(NETWORK);
      await expect(statusCell(page, reject.label)).toContainText('Rejected', NETWORK);
      await expect(statusCell(page, reject.label)).toContainText(`Reason: ${reason}`);
      await expect(statusCell(page, reject.label)).toContainText(`by ${ACCOUNTS.admin.displayName},`);
    });

    await test.step('both reviews are stored on the server', async () => {
      await page.reload();
      await expect(statusCell(page, approve.label)).toContainText('Approved', NETWORK);
      await expect(statusCell(page, reject.label)).toContainText(`Reason: ${reason}`);
    });
  });

  test('uploading a JPEG for a document not yet submitted makes it Submitted; a fake one is refused', async ({
    page,
    request,
    session,
  }) => {
    let missing: DriverDocument | undefined;
    const driver = await pick(ofCity(await fetchDrivers(request, session!), 'Chennai'), async (d) => {
      missing = (await documentsOf(request, session!, d.id)).find((doc) => doc.status === 'not_submitted');
      return missing !== undefined;
    });
    const label = missing!.label;

    await openDashboard(page, driver);
    await expect(statusCell(page, label)).toContainText('Not submitted', NETWORK);
    await expect(documentRow(page, label).getByRole('cell').nth(1)).toHaveText('No image');

    // A real JPEG, drawn by the browser: the server checks the content, not just the name.
    const jpeg = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 200;
      const context = canvas.getContext('2d')!;
      context.fillStyle = '#f4f1e8';
      context.fillRect(0, 0, 320, 200);
      context.fillStyle = '#1d6f5a';
      context.fillRect(0, 0, 320, 40);
      context.fillStyle = '#333';
      context.font = '20px sans-serif';
      context.fillText('DL 0420110012345', 20, 110);
      return canvas.toDataURL('image/jpeg', 0.9).split(',')[1]!;
    });
    const choose = async (file: { name: string; mimeType: string; buffer: Buffer }) => {
      const chooser = page.waitForEvent('filechooser');
      await documentRow(page, label)
        .getByRole('button', { name: `Upload ${label}` })
        .click();
      await (await chooser).setFiles(file);
    };

    // A file named and typed as a JPEG that is none: the server reads the content and refuses it.
    await choose({
      name: 'licence.jpg',
      mimeType: 'image/jpeg',
      buffer: Buffer.from('not a picture at all'),
    });
    await expect(page.getByText('The file is not a readable JPEG or PNG image.')).toBeVisible(NETWORK);
    await expect(statusCell(page, label)).toContainText('Not submitted');

    await choose({ name: 'licence.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(jpeg, 'base64') });
    await expect(page.getByText(`${label} uploaded.`)).toBeVisible(NETWORK);
    await expect(statusCell(page, label)).toContainText('Submitted', NETWORK);
    await expect(statusCell(page, label)).toContainText('awaiting review');
    await expect(documentRow(page, label).getByRole('img', { name: label })).toBeVisible(NETWORK);
    await expect(documentRow(page, label).getByRole('button', { name: `Replace ${label}` })).toBeVisible();
  });

  test('a position the driver app reports moves the dashboard without a reload', async ({
    page,
    request,
    session,
  }) => {
    const driver = await pick(ofCity(await fetchDrivers(request, session!), 'New Delhi'), (d) =>
      Boolean(d.position),
    );
    await openDashboard(page, driver);
    const info = section(page, 'Driver information');
    await expect(info.getByTestId('position-age')).toContainText(coordinates(driver.position!), NETWORK);
    // The server pushes positions; the badge says whether the push channel is open, and "Live"
    // only with a position of the last 2 minutes.
    await expect(info.getByTestId('follow-mode')).toHaveText(
      /^(Live|Connected, no recent position)$/,
      NETWORK,
    );
    // A reload would lose this mark.
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));

    // What the driver app does: a device token issued by staff, then a report with it.
    const idToken = await page.evaluate(() => sessionStorage.getItem('idToken'));
    const issued = await page.request.post(`/api/drivers/driver/${driver.id}/device-tokens`, {
      headers: { authorization: `Bearer ${idToken}` },
      data: { label: 'Browser test phone' },
    });
    expect(issued.status(), await issued.text()).toBe(201);
    const { token } = ((await issued.json()) as { data: { token: string } }).data;
    const moved = {
      lat: Number((driver.position!.lat + 0.01234).toFixed(5)),
      long: Number((driver.position!.long - 0.02345).toFixed(5)),
    };
    const reported = await page.request.post('/api/driver-app/location', {
      headers: { authorization: `Bearer ${token}` },
      data: moved,
    });
    expect(reported.status(), await reported.text()).toBe(204);

    await expect(info.getByTestId('position-age')).toContainText(coordinates(moved), { timeout: 30_000 });
    await expect(info.getByTestId('follow-mode')).toHaveText('Live');
    await expect(info.getByTestId('position-age')).toContainText(/just now|\d+ s ago/);
    // The tab's one stream carries the driver's positions beside the alerts and the inbox.
    await expect.poll(() => openStreams(page)).toEqual([`/api/sos/stream?drivers=${driver.id}`]);
    await expect(info.locator('.leaflet-marker-icon')).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(
      true,
    );
  });
});

test.describe('driver app devices', () => {
  test.use({ role: 'admin' });

  test('a device token is issued once, listed, and revoked; on a phone the list is cards', async ({
    page,
    request,
    session,
  }) => {
    const driver = (await fetchDrivers(request, session!)).at(-3)!;
    await page.setViewportSize({ width: 390, height: 844 });
    await openDashboard(page, driver);
    const devices = section(page, 'Driver app devices');
    const label = `Test phone ${Math.random().toString(36).slice(2, 7)}`;
    await devices.getByLabel('Device name').fill(label);
    await devices.getByRole('button', { name: 'Issue device token' }).click();
    const issued = page.getByRole('dialog', { name: 'Device token issued' });
    await expect(issued).toContainText('it is shown only once');
    await issued.getByRole('button', { name: 'Close' }).first().click();

    const row = devices.getByRole('row').filter({ hasText: label });
    // Each value named (above it, on a phone), and nothing beyond the screen's width.
    await expect(row.locator('td[data-label="Issued"]')).toHaveText(/^\d{2}\/\d{2}\/\d{4}, /);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText(`${label} can no longer report positions.`)).toBeVisible(NETWORK);
    await expect(row).toContainText('Revoked');
  });
});

test.describe('driver dashboard as city dealer', () => {
  test.use({ role: 'city_dealer' });

  test('another dealer’s driver, opened by its address, answers Not found', async ({ page, request }) => {
    const admin = await signInThroughApi(request, 'admin');
    const foreign = ofCity(await fetchDrivers(request, admin), 'Kolkata').at(-1)!;

    await page.goto(`/drivers/${foreign.id}`);
    await expect(page.getByRole('alert').filter({ hasText: 'Not found.' })).toBeVisible(NETWORK);
    await expect(page.getByText(foreign.name)).toHaveCount(0);
    await expect(section(page, 'Driver information')).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Driver List' })).toBeVisible();
  });
});

test.describe('a driver’s file on paper', () => {
  test.use({ role: 'franchise' });

  test('prints the file without the console’s header, navigation and buttons', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    await openDashboard(page, driver!);
    await expect(page.getByRole('button', { name: 'Print' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByRole('heading', { name: driver!.name, level: 2 })).toBeVisible();
    await expect(section(page, 'Document details')).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeHidden();
    await expect(page.getByRole('banner')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Print' })).toBeHidden();
    // Nor the sections' own buttons, while what they show stays.
    const documents = section(page, 'Document details');
    await expect(documents.getByText('Aadhar Card', { exact: true })).toBeVisible();
    const actions = documents.getByRole('button', { name: /^(Upload|Replace|Views of) / });
    for (const button of await actions.all()) await expect(button).toBeHidden();
    await expect(documents.getByRole('button', { name: /^Enlarge / }).first()).toBeVisible();
    // A column of things to do is left off with its heading, the others keep their places.
    const checks = section(page, 'Checks, training and insurance');
    await expect(checks.getByRole('columnheader', { name: 'Check', exact: true })).toBeVisible();
    await expect(checks.getByRole('columnheader', { name: 'Action', includeHidden: true })).toBeHidden();
    const recordCells = checks.getByRole('cell', { includeHidden: true }).filter({ hasText: 'Record' });
    expect(await recordCells.count()).toBeGreaterThan(0);
    for (const cell of await recordCells.all()) await expect(cell).toBeHidden();
    await expect(documents.getByRole('columnheader', { name: 'Actions', includeHidden: true })).toBeHidden();
    const deviceName = section(page, 'Driver app devices').getByRole('textbox', {
      name: 'Device name',
      includeHidden: true,
    });
    await expect(deviceName).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await expect(actions.first()).toBeVisible();
    await expect(checks.getByRole('columnheader', { name: 'Action' })).toBeVisible();
    await expect(documents.getByRole('columnheader', { name: 'Actions' })).toBeVisible();
    await expect(deviceName).toBeVisible();
  });
});

test.describe('a driver’s file on a phone', () => {
  test.use({ role: 'franchise', viewport: { width: 390, height: 844 } });

  // Below the first screen and the half screen after it.
  const below = ['Rating details', 'Vehicle', 'Wallet', 'Driver app devices'];

  /** Opens a driver's file; the wallet, far below the first screen, is not drawn yet. */
  const openUndrawn = async (page: Page, driver: ListedDriver) => {
    await page.goto(`/drivers/${driver.id}`);
    await expect(page.getByRole('heading', { name: driver.name, level: 2 })).toBeVisible(NETWORK);
    await expect(
      section(page, 'Wallet').getByRole('progressbar', { name: 'Loading: Wallet' }),
    ).toBeAttached();
  };

  test('draws the sections below the first screen as they come near, and all of them to print', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    // What the page held when it was sent to the printer, in place of the printer's dialog.
    await page.addInitScript(() => {
      window.print = () => {
        const sections = Array.from(document.querySelectorAll('main section[aria-label]'));
        (window as unknown as { printed: unknown }).printed = sections.map((s) => ({
          title: s.getAttribute('aria-label'),
          waiting: s.hasAttribute('data-section-pending') || s.querySelector('[role="progressbar"]') !== null,
          text: (s as HTMLElement).innerText,
        }));
      };
    });
    await page.goto(`/drivers/${driver!.id}`);
    await expect(page.getByRole('heading', { name: driver!.name, level: 2 })).toBeVisible(NETWORK);
    await expect(section(page, 'Driver information')).toContainText(driver!.name);
    // Far below the first screen: its title and a loader, not yet its content or its request.
    for (const title of below) {
      await expect(
        section(page, title).getByRole('progressbar', { name: `Loading: ${title}` }),
      ).toBeAttached();
    }

    // Scrolled to, the ratings are drawn.
    const ratings = section(page, 'Rating details');
    await ratings.evaluate((element) => element.scrollIntoView());
    await expect(ratings.getByRole('progressbar')).toHaveCount(0, NETWORK);
    await expect(ratings).not.toContainText('Loading', NETWORK);
    await expect(ratings.getByText('No ratings yet').or(ratings.getByText(/ average from /))).toBeVisible();

    // Print draws every section, loads each one's content, and only then prints.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Print' }).click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { printed?: unknown }).printed), NETWORK)
      .toBeTruthy();
    const printed = (await page.evaluate(() => (window as unknown as { printed: unknown }).printed)) as {
      title: string;
      waiting: boolean;
      text: string;
    }[];
    expect(printed.map((s) => s.title)).toEqual([
      'Driver information',
      'Document details',
      'Booking history',
      ...below.slice(0, 2),
      'Checks, training and insurance',
      ...below.slice(2),
    ]);
    for (const part of printed) {
      expect(part.waiting, part.title).toBe(false);
      expect(part.text, part.title).not.toMatch(/Loading/);
    }
  });

  /** The page as on a phone kept busy: the browser is never idle, so no section is fetched ahead. */
  const neverIdle = (page: Page) =>
    page.addInitScript(() => {
      window.requestIdleCallback = () => 0;
    });

  /** Lays the page out for paper as the browser's own Print does; answers what each section holds. */
  const browserPrint = async (page: Page) => {
    // The browser lays the page out for paper as soon as its `beforeprint` handlers return.
    await page.emulateMedia({ media: 'print' });
    const onPaper = await page.evaluate(() => {
      window.dispatchEvent(new Event('beforeprint'));
      return {
        waiting: document.querySelectorAll('[data-section-pending]').length,
        loading: Array.from(
          document.querySelectorAll('main [data-content-loading], main [role="progressbar"]'),
          (element) => element.getAttribute('aria-label') ?? (element as HTMLElement).innerText,
        ),
        wallet: document.querySelector<HTMLElement>('section[aria-label="Wallet"]')!.innerText,
      };
    });
    await page.emulateMedia({ media: 'screen' });
    return onPaper;
  };

  test('fetches the sections ahead, so that the browser’s own Print prints them whole', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    // The last section's answer, fetched ahead without being scrolled to.
    // Each section waits for the browser to be idle, up to 5 s each on a busy machine.
    const devices = page.waitForResponse((response) => response.url().endsWith('/device-tokens'), {
      timeout: 60_000,
    });
    await openUndrawn(page, driver!);
    await devices;
    await networkQuiet(page);
    // Still not drawn: fetched ahead while the browser is idle, shown only when near or printed.
    await expect(
      section(page, 'Wallet').getByRole('progressbar', { name: 'Loading: Wallet' }),
    ).toBeAttached();
    const onPaper = await browserPrint(page);
    expect(onPaper.waiting).toBe(0);
    // Only the documents' images wait to be shown: each fetch of one is a recorded view.
    expect(onPaper.loading.filter((label) => !/^Loading .* image$/.test(label ?? ''))).toEqual([]);
    expect(onPaper.wallet).toMatch(/Balance: |No balance recorded/);
    expect(onPaper.wallet).not.toContain('Not loaded yet');
  });

  test('draws every section at once when the browser is asked to print', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    await neverIdle(page);
    await openUndrawn(page, driver!);
    await expect(section(page, 'Wallet')).not.toContainText('Print button', { useInnerText: true });
    const onPaper = await browserPrint(page);
    expect(onPaper.waiting).toBe(0);
    // Its code had not come: on paper, the section says how to print the whole file.
    expect(onPaper.wallet).toContain('Not loaded yet: the Print button above prints the whole file.');
    await expect(section(page, 'Wallet')).not.toContainText('Loading', NETWORK);
  });

  test('says so when the file cannot be readied for printing, and prints nothing', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    await page.addInitScript(() => {
      window.print = () => ((window as unknown as { printed: boolean }).printed = true);
    });
    await neverIdle(page);
    await openUndrawn(page, driver!);
    await networkQuiet(page);
    // The connection drops: the code of the sections not yet drawn cannot be fetched.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.getByRole('button', { name: 'Print' }).click();
    await expect(
      page.getByRole('alert').filter({
        hasText:
          'The file could not be readied for printing. Check the connection, reload the page and try again.',
      }),
    ).toBeVisible(NETWORK);
    await expect(page.getByRole('button', { name: 'Print' })).toBeEnabled();
    expect(await page.evaluate(() => (window as unknown as { printed?: boolean }).printed)).toBeUndefined();

    // Scrolled to, the section says it could not be loaded; the rest of the file stays.
    await section(page, 'Wallet').evaluate((element) => element.scrollIntoView());
    await expect(section(page, 'Wallet').getByRole('alert')).toHaveText(
      'This section could not be loaded. Check the connection and reload the page.',
      NETWORK,
    );
    await expect(page.getByRole('heading', { name: driver!.name, level: 2 })).toBeVisible();
    await expect(section(page, 'Driver information')).toContainText(driver!.name);
  });
});
