import type { APIRequestContext, Page, Request } from '@playwright/test';
import {
  ACCOUNTS,
  authHeader,
  expect,
  phoneAsShown,
  ROLES,
  signInThroughApi,
  test,
  type Role,
  type Session,
} from './fixtures';
import { screenTitle } from './routes';

/**
 * The Trips screen and its detail panel against the seeded demo trips, compared with what the API
 * answers the same role. Tests run in parallel on one server, so only the feedback test writes,
 * and on a trip deep in the city dealer's list that no other test opens.
 */

/** Lists wait on the API; the machine running the tests may be busy. */
const NETWORK = { timeout: 20_000 };

type Place = { location: string | null };
type Trip = {
  id: string;
  title: string;
  body: string | null;
  phoneNumber: string | null;
  'pick-up': Place;
  destination: Place;
  status: string;
  paid: boolean;
  completed: boolean;
  driver: boolean;
  driverId: string | null;
  driver_info: {
    name: string;
    phoneNumber: string | null;
    rating: number | null;
    Car: string | null;
    vehicleNumber: string | null;
  } | null;
  carType: string | null;
  distance: number | null;
  price: number | null;
  cancelReason: string | null;
  createdAt: string;
};
type TripFeedback = { feedback: string; rating: number; author: { name: string } };
type TripDetail = Trip & {
  feedback: TripFeedback[];
  fare: { base: number; total: number; matchesPrice: boolean } | null;
  timeline: { finishedAt: string | null };
};
type TripFilters = {
  q?: string;
  status?: string;
  paid?: boolean;
  carType?: string;
  from?: string;
  to?: string;
};

/** The list path of a role: admins GET /api/trips, others POST /api/trips/filter-trips. */
const isListRequest = (role: Role) => (request: Request) => {
  const url = new URL(request.url());
  return role === 'admin'
    ? request.method() === 'GET' && url.pathname === '/api/trips'
    : request.method() === 'POST' && url.pathname === '/api/trips/filter-trips';
};

/** The filters a list request carries, wherever the role's path puts them. */
function filtersOf(request: Request): Record<string, unknown> {
  if (request.method() === 'GET') return Object.fromEntries(new URL(request.url()).searchParams);
  return (request.postDataJSON() as Record<string, unknown>) ?? {};
}

/** Up to `max` trips the session may see with these filters, newest first, through its role's path. */
async function fetchTrips(
  request: APIRequestContext,
  session: Session,
  filters: TripFilters = {},
  max = 100,
): Promise<{ trips: Trip[]; more: boolean }> {
  const trips: Trip[] = [];
  let cursor: string | undefined;
  do {
    const limit = Math.min(200, max - trips.length);
    const response =
      session.role === 'admin'
        ? await request.get('/api/trips', {
            headers: authHeader(session),
            params: { ...filters, limit, ...(cursor ? { cursor } : {}) },
          })
        : await request.post('/api/trips/filter-trips', {
            headers: authHeader(session),
            data: { ...filters, limit, cursor },
          });
    expect(response.status(), await response.text()).toBe(200);
    const page = (await response.json()) as { data: Record<string, Trip>; nextCursor: string | null };
    trips.push(...Object.values(page.data));
    cursor = page.nextCursor ?? undefined;
  } while (cursor && trips.length < max);
  return { trips, more: cursor !== undefined };
}

async function fetchTrip(request: APIRequestContext, session: Session, id: string) {
  const response = await request.get(`/api/trips/${id}`, { headers: authHeader(session) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: TripDetail }).data;
}

const tripTable = (page: Page) => page.getByRole('table', { name: 'List of Trips' });
const bodyRows = (page: Page) => tripTable(page).locator('tbody tr');
const searchBox = (page: Page) => page.getByPlaceholder('Search Trips');
const panel = (page: Page) => page.getByRole('region', { name: 'Trip details' });
const loadMore = (page: Page) => page.getByRole('button', { name: 'Load more trips' });

const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/**
 * A row as the user reads it, cell after cell: the title with its badges ('Most Recent Trip' on
 * the first row only, else Paid and/or Completed), pick-up, destination, status, the button.
 */
const rowText = (trip: Trip, index: number) =>
  [
    trip.title,
    index === 0 ? 'Most Recent Trip' : `${trip.paid ? 'Paid' : ''}${trip.completed ? 'Completed' : ''}`,
    istDateTime(trip.createdAt),
    trip['pick-up'].location ?? '-',
    trip.destination.location ?? '-',
    trip.driver_info?.name ?? '-',
    trip.carType ? CAR_TYPE_LABELS[trip.carType] : '-',
    trip.price === null ? '-' : rupees(trip.price),
    statusLabel(trip.status),
    trip.id.slice(-6),
    'View Details',
  ].join('');

const CAR_TYPE_LABELS: Record<string, string> = {
  mini: 'Mini',
  sedan: 'Sedan',
  suv: 'SUV',
  auto: 'Auto',
  erickshaw: 'E-Rickshaw',
};

/** A moment as the console shows it: 24/11/2026, 9:05 am, in India. */
function istDateTime(iso: string): string {
  const part = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', ...options }).format(new Date(iso));
  const time = part({ hour: 'numeric', minute: '2-digit', hour12: true }).replace(/\s+/g, ' ');
  return `${part({ day: '2-digit', month: '2-digit', year: 'numeric' })}, ${time}`;
}

/** Rupees as the console shows them: ₹1,250 or ₹107.50. */
const rupees = (amount: number) =>
  `₹${new Intl.NumberFormat('en-IN', Number.isInteger(amount) ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(amount)}`;

/** The table shows exactly these trips, in this order; it keeps the last answer until the next arrives. */
async function expectTrips(page: Page, trips: Trip[], more: boolean) {
  if (trips.length === 0) {
    await expect(page.getByText('No trips match.', { exact: true })).toBeVisible(NETWORK);
    await expect(tripTable(page)).toHaveCount(0);
  } else {
    await expect(bodyRows(page)).toHaveText(trips.map(rowText), NETWORK);
  }
  await expect(loadMore(page)).toHaveCount(more ? 1 : 0);
}

/** Picks an option of one of the screen's filter selects ('Any' clears it). */
async function choose(page: Page, filter: string, option: string) {
  await page.getByRole('combobox', { name: filter, exact: true }).selectOption({ label: option });
}

/** The IST calendar date `days` before an instant, as the date inputs and the API take it. */
const daysBefore = (iso: string, days: number) =>
  new Date(Date.parse(iso) + 5.5 * 3_600_000 - days * 86_400_000).toISOString().slice(0, 10);

for (const role of ROLES) {
  test.describe(`trip list as ${role}`, () => {
    test.use({ role });

    test('shows the spec’s heading, search box and columns, newest first with badges, and loads more', async ({
      page,
      request,
      session,
    }) => {
      const { trips, more } = await fetchTrips(request, session!, {}, 100);
      expect(trips.length).toBe(100);
      expect(more).toBe(true);
      // The demo data has both badges on the first page, so the assertions below mean something.
      expect(trips.slice(1, 50).some((t) => t.paid && t.completed)).toBe(true);
      expect(trips.slice(1, 50).some((t) => !t.paid)).toBe(true);

      await page.goto('/trips');
      await expect(screenTitle(page, 'List of Trips')).toBeVisible();
      await expect(searchBox(page)).toBeVisible();
      await expect(searchBox(page)).toHaveValue('');
      await expect(tripTable(page).getByRole('columnheader')).toHaveText(
        [
          'Trip Title',
          'Date and time',
          'Pick-up Location',
          'Destination Location',
          'Driver',
          'Car type',
          'Fare',
          'Status',
          'Trip ID',
          'Actions',
        ],
        NETWORK,
      );
      await expectTrips(page, trips.slice(0, 50), true);
      await expect(bodyRows(page).first().getByText('Most Recent Trip', { exact: true })).toBeVisible();
      await expect(tripTable(page).getByText('Most Recent Trip', { exact: true })).toHaveCount(1);

      await loadMore(page).click();
      await expectTrips(page, trips, true);
    });

    test('search narrows the list to titles containing the text, whatever its case, once typing pauses', async ({
      page,
      request,
      session,
    }) => {
      const term = 'kumar';
      const expected = await fetchTrips(request, session!, { q: term }, 50);
      expect(expected.trips.length).toBeGreaterThan(1);
      // Titles are written 'Kumar': the lower-case term finds them only if case does not matter.
      for (const trip of expected.trips) expect(trip.title).toMatch(/kumar/i);
      expect(expected.trips.some((t) => t.title.includes('Kumar'))).toBe(true);

      await page.goto('/trips');
      await expect(bodyRows(page)).toHaveCount(50, NETWORK);
      const searches: unknown[] = [];
      page.on('request', (r) => {
        if (isListRequest(role)(r) && filtersOf(r).q) searches.push(filtersOf(r).q);
      });

      await searchBox(page).pressSequentially(term, { delay: 40 });
      // Debounced: not one request per key stroke, and the last one asks for the whole word. Waited
      // for before the rows are read: on a busy machine typing may pause after 'kum', whose trips
      // in a small scope can be the same as those of 'kumar'.
      await expect.poll(() => searches.at(-1), NETWORK).toBe(term);
      await expectTrips(page, expected.trips, expected.more);
      expect(searches.length).toBeLessThan(term.length);

      await searchBox(page).fill('no trip has this title');
      await expectTrips(page, [], false);
      // The empty result says what was searched and what else to try.
      await expect(page.getByText('Searched for “no trip has this title”')).toBeVisible();
      await expect(page.getByText(/Try fewer words, the customer’s 10-digit phone number/)).toBeVisible();
      // A phone number is searched as one.
      await searchBox(page).fill('+91 90000 00001');
      await expectTrips(page, [], false);
      await expect(
        page.getByText('Searched for “+91 90000 00001” as the customer’s phone number.'),
      ).toBeVisible();

      await searchBox(page).fill('');
      await expectTrips(page, (await fetchTrips(request, session!, {}, 50)).trips, true);
    });
  });
}

test.describe('trip search as staff hear it on the phone', () => {
  test.use({ role: 'admin' });

  test('finds a trip by the customer’s phone as said, and by the last 6 characters of its id', async ({
    page,
    request,
    session,
  }) => {
    const { trips } = await fetchTrips(request, session!, {}, 50);
    const trip = trips.find((candidate) => (candidate.phoneNumber ?? '').replace(/\D/g, '').length >= 10)!;
    const digits = trip.phoneNumber!.replace(/\D/g, '').slice(-10);
    await page.goto('/trips');
    await expect(bodyRows(page).first()).toBeVisible(NETWORK);
    await searchBox(page).fill(`0${digits.slice(0, 5)} ${digits.slice(5)}`);
    await expect(bodyRows(page).filter({ hasText: trip.title }).first()).toBeVisible(NETWORK);
    await searchBox(page).fill(trip.id.slice(-6).toUpperCase());
    await expect(bodyRows(page).filter({ hasText: trip.title }).first()).toBeVisible(NETWORK);
  });
});

test.describe('trip list loader', () => {
  test.use({ role: 'city_dealer' });

  test('shows a loader until the trips arrive', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname === '/api/trips/filter-trips',
      async (route) => {
        await held;
        await route.continue();
      },
    );
    await page.goto('/trips');
    await expect(screenTitle(page, 'List of Trips')).toBeVisible(NETWORK);
    await expect(page.getByLabel('Loading trips')).toBeVisible();
    await expect(tripTable(page)).toHaveCount(0);
    release();
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    await expect(page.getByLabel('Loading trips')).toHaveCount(0);
  });
});

for (const role of ['admin', 'city_dealer'] as const) {
  test.describe(`trip filters as ${role}`, () => {
    test.use({ role });

    test('status, payment, car type and date range narrow the list as the API does', async ({
      page,
      request,
      session,
    }) => {
      const newest = (await fetchTrips(request, session!, {}, 1)).trips[0]!;
      const asTyped = (date: string) => date.split('-').reverse().join('/');
      const from = daysBefore(newest.createdAt, 40);
      const to = daysBefore(newest.createdAt, 30);
      const steps: { name: string; filters: TripFilters; apply: () => Promise<void> }[] = [
        {
          name: 'status Completed',
          filters: { status: 'completed' },
          apply: () => choose(page, 'Status', 'Completed'),
        },
        {
          name: 'and Unpaid',
          filters: { status: 'completed', paid: false },
          apply: () => choose(page, 'Payment', 'Unpaid'),
        },
        {
          name: 'status Cancelled, any payment, car type Sedan',
          filters: { status: 'cancelled', carType: 'sedan' },
          apply: async () => {
            await choose(page, 'Status', 'Cancelled');
            await choose(page, 'Payment', 'Any');
            await choose(page, 'Car type', 'Sedan');
          },
        },
        {
          name: `Paid, any status and car type, from ${from} to ${to}`,
          filters: { paid: true, from, to },
          apply: async () => {
            await choose(page, 'Status', 'Any');
            await choose(page, 'Car type', 'Any');
            await choose(page, 'Payment', 'Paid');
            // Dates are typed as staff in India write them.
            await page.getByLabel('From', { exact: true }).fill(asTyped(from));
            await page.getByLabel('To', { exact: true }).fill(asTyped(to));
          },
        },
      ];

      await page.goto('/trips');
      await expect(bodyRows(page)).toHaveCount(50, NETWORK);
      for (const step of steps) {
        await test.step(step.name, async () => {
          const expected = await fetchTrips(request, session!, step.filters, 50);
          expect(expected.trips.length, 'the demo data has such trips').toBeGreaterThan(0);
          await step.apply();
          await expectTrips(page, expected.trips, expected.more);
          if (step.filters.status) {
            await expect(tripTable(page).locator('tbody td:nth-child(8)')).toHaveText(
              expected.trips.map(() => statusLabel(step.filters.status!)),
            );
          }
        });
      }
      // Every trip of the range lies within it (IST days, both ends included).
      const ranged = await fetchTrips(request, session!, { paid: true, from, to }, 200);
      for (const trip of ranged.trips) {
        const day = daysBefore(trip.createdAt, 0);
        expect(day >= from && day <= to, `${trip.createdAt} in ${from}..${to}`).toBe(true);
      }
    });
  });
}

test.describe('trip dates as typed', () => {
  test.use({ role: 'admin' });
  test('a date that is not real is named and changes nothing; DD/MM/YYYY applies', async ({ page }) => {
    await page.goto('/trips');
    await expect(bodyRows(page)).toHaveCount(50, NETWORK);
    const first = (await bodyRows(page).first().textContent()) ?? '';
    const from = page.getByLabel('From', { exact: true });
    await expect(from).toHaveAttribute('placeholder', 'DD/MM/YYYY');
    await from.fill('31/02/2026');
    await from.blur();
    await expect(page.getByText('Enter a real date as DD/MM/YYYY.')).toBeVisible();
    await expect(bodyRows(page).first()).toHaveText(first);
    // A day far in the future leaves no trip.
    await from.fill('01/01/2999');
    await expect(page.getByText('Enter a real date as DD/MM/YYYY.')).toBeHidden();
    await expect(page.getByText('No trips match.')).toBeVisible(NETWORK);
  });
});

for (const role of ['city_dealer', 'franchise'] as const) {
  test.describe(`trip scope of a ${role}`, () => {
    test.use({ role });

    test('shows only trips of the role’s drivers: a trip without a driver is neither listed nor opened', async ({
      page,
      request,
      session,
    }) => {
      const admin = await signInThroughApi(request, 'admin');
      // A trip without a driver whose title (the customer's name) is on none of this role's trips.
      const unassigned = (await fetchTrips(request, admin, { status: 'requested' }, 200)).trips;
      expect(unassigned.length).toBeGreaterThan(0);
      let foreign: Trip | undefined;
      for (const trip of unassigned) {
        expect(trip.driver).toBe(false);
        if ((await fetchTrips(request, session!, { q: trip.title }, 1)).trips.length === 0) {
          foreign = trip;
          break;
        }
      }
      expect(foreign, 'the demo data has such a trip').toBeDefined();
      const adminAnswer = await fetchTrips(request, admin, { q: foreign!.title }, 50);
      expect(adminAnswer.trips.map((t) => t.id)).toContain(foreign!.id);

      const own = await fetchTrips(request, session!, {}, 50);
      await page.goto('/trips');
      await expectTrips(page, own.trips, true);

      await searchBox(page).fill(foreign!.title);
      await expectTrips(page, [], false);

      // Its own URL does not open it either: the panel says what the API says.
      const answer = await request.get(`/api/trips/${foreign!.id}`, { headers: authHeader(session) });
      expect(answer.status()).toBe(404);
      const { error } = (await answer.json()) as { error: string };
      await page.goto(`/trips/${foreign!.id}`);
      await expect(panel(page)).toContainText(error, NETWORK);
      await expect(panel(page).getByRole('table')).toHaveCount(0);
      await expect(panel(page)).not.toContainText(foreign!.title);
    });
  });
}

/** The panel's rows as the user reads them: a label, then its value. */
const DETAIL_LABELS = [
  'Body',
  'Pick-up Location',
  'Destination Location',
  'Driver Assigned',
  'Driver Name',
  'Driver Phone Number',
  'Driver Rating',
  'Vehicle Type',
  'Driver Vehicle Number',
  'Trip Phone Number',
  'Date and time',
  'Distance',
  'Fare',
  'Payment',
  'Trip ID',
];

const dash = (value: string | null | undefined) => value || '-';

function detailValues(trip: Trip): (string | RegExp)[] {
  const info = trip.driver_info;
  return [
    dash(trip.body),
    dash(trip['pick-up'].location),
    dash(trip.destination.location),
    trip.driver ? 'Yes' : 'No',
    dash(info?.name),
    dash(info?.phoneNumber && phoneAsShown(info.phoneNumber)),
    info?.rating != null ? new RegExp(`^\\s*${info.rating.toFixed(1).replace('.', '\\.')}$`) : '-',
    dash(info?.Car),
    dash(info?.vehicleNumber),
    dash(trip.phoneNumber && phoneAsShown(trip.phoneNumber)),
    istDateTime(trip.createdAt),
    trip.distance === null ? '-' : `${trip.distance} km`,
    trip.price === null ? '-' : rupees(trip.price),
    trip.paid ? 'Paid' : 'Unpaid',
    trip.id,
  ];
}

/** The panel's own table of the trip (the fare's table follows it). */
const detailTable = (page: Page) => panel(page).locator('table').first();

async function expectPanelShows(page: Page, trip: Trip) {
  await expect(panel(page).getByRole('heading', { name: trip.title, exact: true })).toBeVisible(NETWORK);
  await expect(detailTable(page).locator('tbody th')).toHaveText(
    trip.cancelReason ? [...DETAIL_LABELS.slice(0, -1), 'Cancellation reason', 'Trip ID'] : DETAIL_LABELS,
  );
  const values = detailValues(trip);
  await expect(detailTable(page).locator('tbody td')).toHaveText(
    trip.cancelReason ? [...values.slice(0, -1), trip.cancelReason, trip.id] : values,
  );
  if (trip.driver_info?.rating != null) {
    await expect(
      panel(page).getByRole('img', { name: `${trip.driver_info.rating} out of 5 stars` }),
    ).toBeVisible();
  }
}

for (const role of ['admin', 'city_dealer'] as const) {
  test.describe(`trip detail panel as ${role}`, () => {
    test.use({ role });

    test('View Details opens the read-only panel at its own URL; Close clears it; a reload reopens it', async ({
      page,
      request,
      session,
    }) => {
      const { trips } = await fetchTrips(request, session!, {}, 50);
      const index = trips.findIndex((t, i) => i > 0 && t.driver_info?.rating != null);
      expect(index).toBeGreaterThan(0);
      const trip = await fetchTrip(request, session!, trips[index]!.id);
      expect(trip.driver).toBe(true);
      // The customer's phone number is personal data: only admins receive it.
      if (role === 'admin') expect(trip.phoneNumber).toBeTruthy();
      else expect(trip.phoneNumber).toBeNull();

      await page.goto('/trips');
      await expect(bodyRows(page)).toHaveCount(50, NETWORK);
      await expect(panel(page)).toHaveCount(0);
      await bodyRows(page).nth(index).getByRole('button', { name: 'View Details' }).click();
      await expect(page).toHaveURL(new RegExp(`/trips/${trip.id}$`));
      await expectPanelShows(page, trip);
      if (role !== 'admin') {
        await expect(detailTable(page).locator('tbody td').nth(9)).toHaveText('-');
      } else {
        // A phone is a link that calls it, and one that opens a WhatsApp chat.
        const digits = trip.phoneNumber!.replace(/\D/g, '').slice(-10);
        await expect(
          panel(page).getByRole('link', { name: phoneAsShown(trip.phoneNumber!), exact: true }),
        ).toHaveAttribute('href', `tel:+91${digits}`);
        await expect(
          panel(page).getByRole('link', { name: `WhatsApp ${phoneAsShown(trip.phoneNumber!)}` }),
        ).toHaveAttribute('href', `https://wa.me/91${digits}`);
      }

      await panel(page).getByRole('button', { name: 'Close', exact: true }).click();
      await expect(page).toHaveURL(/\/trips$/);
      await expect(panel(page)).toHaveCount(0);
      await expect(bodyRows(page)).toHaveCount(50);

      await test.step('the panel’s URL opens it directly, and again after a reload', async () => {
        await page.goto(`/trips/${trip.id}`);
        await expectPanelShows(page, trip);
        await page.reload();
        await expectPanelShows(page, trip);
        await expect(bodyRows(page)).toHaveCount(50, NETWORK);
      });
    });
  });
}

test.describe('trip detail panel of a trip without a driver', () => {
  test.use({ role: 'admin' });

  test('says No for Driver Assigned and shows a dash for each driver field', async ({
    page,
    request,
    session,
  }) => {
    const listed = (await fetchTrips(request, session!, { status: 'requested' }, 1)).trips[0]!;
    const trip = await fetchTrip(request, session!, listed.id);
    expect(trip.driver).toBe(false);
    await page.goto(`/trips/${trip.id}`);
    await expectPanelShows(page, trip);
    await expect(detailTable(page).locator('tbody td').nth(3)).toHaveText('No');
    await expect(detailTable(page).locator('tbody td').nth(4)).toHaveText('-');
  });
});

test.describe('trip feedback', () => {
  test.use({ role: 'city_dealer' });

  test('is refused without a rating, then saved with its author, shown in the panel and after a reload', async ({
    page,
    request,
    session,
  }) => {
    // Deep in the dealer's list: no other test opens this trip, so its feedback is this test's.
    const { trips } = await fetchTrips(request, session!, {}, 140);
    const trip = await fetchTrip(request, session!, trips[137]!.id);
    expect(trip.feedback).toEqual([]);
    const text = `Clean car, polite driver (check ${Date.now()})`;
    const posts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/api/trips/${trip.id}/feedback`)) posts.push(r.url());
    });

    await page.goto(`/trips/${trip.id}`);
    await expectPanelShows(page, trip);
    const form = panel(page).getByRole('form', { name: 'Trip feedback' });
    const feedback = form.getByRole('textbox', { name: 'Feedback' });
    // Mantine's rating keeps a radio for 0: it is the one checked while no star is chosen.
    const noStars = form.getByRole('radio', { checked: true });
    await expect(feedback).toHaveValue('');
    await expect(noStars).toHaveAccessibleName('0');
    await expect(panel(page).getByText('Saved feedback', { exact: true })).toHaveCount(0);

    await test.step('Submit without a rating is refused and saves nothing', async () => {
      await feedback.fill(text);
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(form.getByRole('alert')).toHaveText('Please choose a rating from 1 to 5 stars.');
      await expect(panel(page).getByText('Saved feedback', { exact: true })).toHaveCount(0);
      expect(posts).toEqual([]);
      expect((await fetchTrip(request, session!, trip.id)).feedback).toEqual([]);
    });

    await test.step('with 4 stars it is saved and the form resets', async () => {
      // The radios are hidden behind the stars: click the fourth star, as a user does.
      const fourth = await form.getByRole('radio', { name: '4', exact: true }).getAttribute('id');
      await form.locator(`label[for="${fourth}"]`).click();
      await expect(form.getByRole('radio', { name: '4', exact: true })).toBeChecked();
      await form.getByRole('button', { name: 'Submit' }).click();
      await expect(form.getByRole('status')).toHaveText('Thank you: your feedback was saved.', NETWORK);
      await expect(form.getByRole('alert')).toHaveCount(0);
      await expect(feedback).toHaveValue('');
      await expect(noStars).toHaveAccessibleName('0');
    });

    const author = ACCOUNTS.city_dealer.displayName;
    const saved = panel(page).getByText(text, { exact: true });
    // The panel shows the driver's rating with the same stars: the feedback's are in its list.
    const savedStars = panel(page)
      .getByLabel('Saved feedback')
      .getByRole('img', { name: '4 out of 5 stars' });
    await test.step('the saved feedback shows in the panel with its author and rating', async () => {
      await expect(saved).toBeVisible(NETWORK);
      await expect(panel(page).getByText('Saved feedback', { exact: true })).toBeVisible();
      await expect(panel(page).getByText(new RegExp(`^${author}, `))).toBeVisible();
      await expect(savedStars).toBeVisible();
      const stored = (await fetchTrip(request, session!, trip.id)).feedback;
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatchObject({ feedback: text, rating: 4, author: { name: author } });
    });

    await test.step('and still after a reload', async () => {
      await page.reload();
      await expect(saved).toBeVisible(NETWORK);
      await expect(panel(page).getByText(new RegExp(`^${author}, `))).toBeVisible();
      await expect(savedStars).toBeVisible();
      await expect(feedback).toHaveValue('');
    });
  });
});

test.describe('a trip read at a glance', () => {
  test.use({ role: 'franchise' });

  test('the list says how many trips it holds, and follows a search', async ({ page, request, session }) => {
    const count = async (body: Record<string, unknown>) => {
      const response = await request.post('/api/trips/count', { headers: authHeader(session!), data: body });
      expect(response.status()).toBe(200);
      return ((await response.json()) as { data: { total: number } }).data.total;
    };
    const all = await count({});
    const completed = await count({ status: 'completed' });
    expect(all).toBeGreaterThan(completed);
    await page.goto('/trips');
    const summary = page.getByText(/^Showing \d+ of [\d,]+\+? trips$/);
    await expect(summary).toHaveText(`Showing 50 of ${all.toLocaleString('en-IN')} trips`, NETWORK);
    await page.goto('/trips?status=completed');
    await expect(summary).toHaveText(
      `Showing ${Math.min(50, completed)} of ${completed.toLocaleString('en-IN')} trips`,
      NETWORK,
    );
  });

  test('the panel shows the timeline, how the fare is made and the trip on a map', async ({
    page,
    request,
    session,
  }) => {
    const { trips } = await fetchTrips(request, session!, { status: 'completed' }, 10);
    const trip = await fetchTrip(request, session!, trips[0]!.id);
    await page.goto(`/trips/${trip.id}`);
    const timeline = panel(page).getByRole('region', { name: 'Timeline' });
    await expect(timeline.getByRole('listitem')).toHaveText(
      [/^Requested /, /^Assigned /, /^Started /, `Finished ${istDateTime(trip.timeline.finishedAt!)}`],
      NETWORK,
    );
    const fare = panel(page).getByRole('region', { name: 'How the fare is made' });
    // The demo trips are priced by the rates of their driver's state, as the app prices them.
    expect(trip.fare?.matchesPrice).toBe(true);
    await expect(fare.getByRole('row', { name: /^Base price/ })).toHaveText(
      `Base price${rupees(trip.fare!.base)}`,
    );
    await expect(fare.getByRole('row', { name: /^Total/ })).toHaveText(`Total${rupees(trip.price!)}`);
    await expect(fare.getByText('The recorded fare differs')).toHaveCount(0);
    const map = panel(page).getByRole('region', { name: 'Pick-up and destination on the map' });
    await expect(map).toBeVisible(NETWORK);
    await expect(map.getByText('Pick-up', { exact: true })).toBeVisible();
    await expect(map.getByText('Destination', { exact: true })).toBeVisible();
  });
});

test.describe('a trip on paper', () => {
  test.use({ role: 'city_dealer' });

  test('prints the open trip alone, without the list under it or the panel’s buttons', async ({
    page,
    request,
    session,
  }) => {
    const { trips } = await fetchTrips(request, session!, {}, 5);
    await page.goto(`/trips/${trips[0]!.id}`);
    await expect(panel(page).getByRole('heading', { name: trips[0]!.title })).toBeVisible(NETWORK);
    await expect(panel(page).getByRole('button', { name: 'Print' })).toBeVisible();
    await page.emulateMedia({ media: 'print' });
    await expect(panel(page).getByRole('heading', { name: trips[0]!.title })).toBeVisible();
    await expect(panel(page).getByRole('region', { name: 'Timeline' })).toBeVisible();
    await expect(tripTable(page)).toBeHidden();
    await expect(panel(page).getByRole('button', { name: 'Print' })).toBeHidden();
    await expect(panel(page).getByRole('form', { name: 'Trip feedback' })).toBeHidden();
  });
});
