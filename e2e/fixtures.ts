import { test as base, expect, type Page, type Request } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';

export type Role = 'admin' | 'city_dealer' | 'franchise';

/** The password scripts/e2e-server.mjs gives the demo accounts. */
export const DEMO_PASSWORD = 'e2e-demo-password-2026';

/** The seeded demo accounts (apps/api/src/seed/demo.ts), one per role. */
export const ACCOUNTS: Record<Role, { email: string; displayName: string; tab: string }> = {
  admin: { email: 'admin@bookmyetaxi.test', displayName: 'Asha Rao', tab: 'Admin' },
  city_dealer: { email: 'dealer@bookmyetaxi.test', displayName: 'Vikram Patil', tab: 'City Dealer' },
  franchise: {
    email: 'franchise@bookmyetaxi.test',
    displayName: 'Mumbai Central EV Cabs',
    tab: 'Franchise',
  },
};

export const ROLES = Object.keys(ACCOUNTS) as Role[];

export type Session = { idToken: string; expirationTime: number; role: Role };

/** Reads what the app keeps in session storage, as the spec names the keys. */
export async function readSessionStorage(page: Page) {
  return page.evaluate(() => ({
    idToken: sessionStorage.getItem('idToken'),
    expirationTime: sessionStorage.getItem('expirationTime'),
    currentClaim: sessionStorage.getItem('currentClaim'),
    length: sessionStorage.length,
  }));
}

/**
 * Puts a session into session storage before the page's first script runs. Session storage is
 * not part of Playwright's storageState, and an init script runs again on every navigation, so
 * a marker in local storage makes it run once: a later logout or 401 must not bring it back.
 * (A sign-in through the screen clears local storage, so do not mix the two in one test.)
 */
export async function seedSession(page: Page, session: Session) {
  await page.addInitScript((s) => {
    // about:blank has no storage of its own.
    if (!location.protocol.startsWith('http') || localStorage.getItem('e2e-session-seeded')) return;
    localStorage.setItem('e2e-session-seeded', '1');
    sessionStorage.setItem('idToken', s.idToken);
    sessionStorage.setItem('expirationTime', String(s.expirationTime));
    sessionStorage.setItem('currentClaim', s.role);
  }, session);
}

/** Signs in through the sign-in screen, the way a user does, and waits for the welcome screen. */
export async function signInThroughUi(page: Page, role: Role) {
  const account = ACCOUNTS[role];
  await page.goto('/admin');
  await page.getByRole('tab', { name: account.tab, exact: true }).click();
  await page.getByLabel(/^Email/).fill(account.email);
  await page.getByLabel(/^Password/).fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  await expect(
    page.getByRole('heading', { name: `Welcome ${account.displayName} to Book-My-ETaxi` }),
  ).toBeVisible();
}

type Fixtures = {
  /** The role the test's page is signed in as; null leaves it signed out. */
  role: Role | null;
  /** The session of the signed-in page (null when signed out). */
  session: Session | null;
};

/**
 * `test.use({ role: 'admin' })` gives a page already signed in as that role's demo account:
 * signed in through the API (fast, and the sign-in screen has tests of its own) with the session
 * seeded before the first navigation.
 */
export const test = base.extend<Fixtures>({
  role: [null, { option: true }],
  session: async ({ role, request }, use) => {
    if (!role) return use(null);
    const response = await request.post('/api/auth/sign-in', {
      data: { email: ACCOUNTS[role].email, password: DEMO_PASSWORD, role },
    });
    expect(response.status(), await response.text()).toBe(200);
    const { data } = (await response.json()) as { data: Session };
    await use(data);
  },
  page: async ({ page, session }, use) => {
    followRequests(page);
    if (session) await seedSession(page, session);
    await use(page);
  },
});

export { expect };

/** A stream the console keeps open while a screen is shown (the SOS alerts, live positions). */
const isStream = (url: string) => new URL(url).pathname.endsWith('/stream');

/** The requests of each page still waiting for their answer, streams left out. */
const inFlight = new WeakMap<Page, Set<Request>>();
/** The streams each page holds open. */
const streamsOf = new WeakMap<Page, Set<Request>>();

function followRequests(page: Page) {
  const open = new Set<Request>();
  const streams = new Set<Request>();
  inFlight.set(page, open);
  streamsOf.set(page, streams);
  page.on('request', (request) => {
    (isStream(request.url()) ? streams : open).add(request);
  });
  const ended = (request: Request) => {
    open.delete(request);
    streams.delete(request);
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
}

/** The streams a page holds open, as their paths and queries: a tab keeps one. */
export function openStreams(page: Page): string[] {
  return [...(streamsOf.get(page) ?? [])].map((request) => {
    const url = new URL(request.url());
    return decodeURIComponent(`${url.pathname}${url.search}`);
  });
}

/**
 * Waits until the page has had no request in flight for half a second, as Playwright's
 * 'networkidle' does, but leaving out the streams a signed-in page always keeps open (the SOS
 * banner's), which would keep the network busy forever.
 */
export async function networkQuiet(page: Page, timeout = 30_000) {
  const open = inFlight.get(page);
  if (!open) return page.waitForLoadState('networkidle', { timeout });
  await page.waitForLoadState('load', { timeout });
  const until = Date.now() + timeout;
  let quietSince = Date.now();
  while (Date.now() - quietSince < 500) {
    if (Date.now() > until)
      throw new Error(`requests still open: ${[...open].map((r) => r.url()).join(', ')}`);
    await page.waitForTimeout(100);
    if (open.size > 0) quietSince = Date.now();
  }
}

/** The Authorization header of a session, for calls a test makes to the API itself. */
export const authHeader = (session: Session | null) => ({ authorization: `Bearer ${session!.idToken}` });

/** Signs a demo account in through the API, for a test that needs a second role's token. */
export async function signInThroughApi(request: APIRequestContext, role: Role): Promise<Session> {
  const response = await request.post('/api/auth/sign-in', {
    data: { email: ACCOUNTS[role].email, password: DEMO_PASSWORD, role },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: Session }).data;
}

/** A driver as the list endpoints answer it (the fields the browser tests look at). */
export type ListedDriver = {
  id: string;
  name: string;
  email: string | null;
  phoneNumber: string | null;
  country: string | null;
  franchiseId: string | null;
  franchiseName: string | null;
  vehicleNumber: string | null;
  position: { lat: number; long: number } | null;
};

/**
 * Every driver a session may see through one of the spec's list paths (`/api/drivers`,
 * `/api/city_dealer`, `/api/franchise`), in list order, following the cursor page by page.
 */
export async function fetchDrivers(
  request: APIRequestContext,
  session: Session,
  path = '/api/drivers',
  q?: string,
): Promise<ListedDriver[]> {
  const drivers: ListedDriver[] = [];
  let cursor: string | null = null;
  do {
    const params: Record<string, string | number> = { limit: 200 };
    if (q) params.q = q;
    if (cursor) params.cursor = cursor;
    const response = await request.get(path, { headers: authHeader(session), params });
    expect(response.status(), await response.text()).toBe(200);
    const page = (await response.json()) as {
      data: Record<string, ListedDriver>;
      nextCursor: string | null;
    };
    drivers.push(...Object.values(page.data));
    cursor = page.nextCursor;
  } while (cursor);
  return drivers;
}

/**
 * A phone as the console shows it, written out again as the tests' oracle: an Indian mobile as
 * +91 98765 43210 whatever form it was stored in, any other number as written.
 */
export function phoneAsShown(stored: string): string {
  const match = /^(?:\+?91|0)?([6-9]\d{9})$/.exec(stored.replace(/[\s()-]/g, ''));
  return match ? `+91 ${match[1]!.slice(0, 5)} ${match[1]!.slice(5)}` : stored;
}
