import { expect, type Locator, type Page } from '@playwright/test';
import { networkQuiet, type Role } from './fixtures';

/**
 * The signed-in routes of the spec's route table, with the roles that may open each (spec
 * section 6) and the title its screen shows.
 */
export const STAFF_ROUTES: { path: string; title: string | RegExp; roles: Role[] }[] = [
  { path: '/welcome', title: /^Welcome .+ to Book-My-ETaxi$/, roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/dashboard', title: 'Dashboard', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/trips', title: 'List of Trips', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/drivers', title: 'Driver List', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/fleet', title: 'Fleet map', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/customers', title: 'Customers', roles: ['admin'] },
  { path: '/createCityDealer', title: 'City Dealer sign up', roles: ['admin'] },
  { path: '/createfranchise', title: 'Franchise Sign up', roles: ['admin', 'city_dealer'] },
  { path: '/cityDealer', title: 'City Dealers', roles: ['admin'] },
  { path: '/displayFranchise', title: 'Franchises', roles: ['admin', 'city_dealer'] },
  { path: '/profile', title: 'Profile', roles: ['admin'] },
  { path: '/second-factor', title: 'Second factor', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/update-password', title: 'Update Password', roles: ['admin'] },
  { path: '/manage-prices', title: 'Manage Car Rates by State', roles: ['admin'] },
  { path: '/compliance', title: 'Document compliance', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/audit', title: 'Audit trail', roles: ['admin', 'city_dealer'] },
  { path: '/firebase-link', title: 'Firebase link', roles: ['admin'] },
  { path: '/fare-rules', title: 'Fare rules', roles: ['admin'] },
  { path: '/vehicles', title: 'Vehicles', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/grievances', title: 'Grievances', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/grievances/settings', title: 'Grievance settings', roles: ['admin'] },
  { path: '/grievances/report', title: 'Grievance report', roles: ['admin', 'city_dealer', 'franchise'] },
  { path: '/sos', title: 'SOS control room', roles: ['admin', 'city_dealer', 'franchise'] },
];

/** The navigation bar per role: the dashboard first, then the spec's order. */
export const NAV_LINKS: Record<Role, { label: string; path: string }[]> = {
  admin: [
    { label: 'Dashboard', path: '/dashboard' },
    { label: 'Fleet map', path: '/fleet' },
    { label: 'Drivers', path: '/drivers' },
    { label: 'Vehicles', path: '/vehicles' },
    { label: 'Trips', path: '/trips' },
    { label: 'Update Password', path: '/update-password' },
    { label: 'Manage Prices', path: '/manage-prices' },
    { label: 'Fare rules', path: '/fare-rules' },
    { label: 'Customers', path: '/customers' },
    { label: 'Create City Dealer', path: '/createcitydealer' },
    { label: 'Franchises', path: '/displayFranchise' },
    { label: 'Create Franchise', path: '/createfranchise' },
    { label: 'City Dealers', path: '/cityDealer' },
    { label: 'Compliance', path: '/compliance' },
    { label: 'Grievances', path: '/grievances' },
    { label: 'SOS control room', path: '/sos' },
    { label: 'Audit trail', path: '/audit' },
    { label: 'Firebase link', path: '/firebase-link' },
  ],
  city_dealer: [
    { label: 'Dashboard', path: '/dashboard' },
    { label: 'Fleet map', path: '/fleet' },
    { label: 'Drivers', path: '/drivers' },
    { label: 'Vehicles', path: '/vehicles' },
    { label: 'Trips', path: '/trips' },
    { label: 'Franchises', path: '/displayFranchise' },
    { label: 'Create Franchise', path: '/createfranchise' },
    { label: 'Compliance', path: '/compliance' },
    { label: 'Grievances', path: '/grievances' },
    { label: 'SOS control room', path: '/sos' },
    { label: 'Audit trail', path: '/audit' },
  ],
  franchise: [
    { label: 'Dashboard', path: '/dashboard' },
    { label: 'Fleet map', path: '/fleet' },
    { label: 'Drivers', path: '/drivers' },
    { label: 'Vehicles', path: '/vehicles' },
    { label: 'Trips', path: '/trips' },
    { label: 'Compliance', path: '/compliance' },
    { label: 'Grievances', path: '/grievances' },
    { label: 'SOS control room', path: '/sos' },
  ],
};

/** The title of the screen a path opens, matching paths without regard to case as the router does. */
export function titleOf(path: string): string | RegExp {
  const route = STAFF_ROUTES.find((r) => r.path.toLowerCase() === path.toLowerCase());
  if (!route) throw new Error(`No route ${path} in the route table`);
  return route.title;
}

/**
 * Waits until a screen has shown what it loads. The fleet map holds its live stream open, so the
 * network never goes quiet there: it marks itself loaded instead.
 */
export async function screenLoaded(page: Page, path: string) {
  if (path.toLowerCase() === '/fleet') await page.locator('[data-fleet-loaded] .fleet-map').waitFor();
  else await networkQuiet(page);
  if (/^\/(dashboard|drivers\/[^/]+$)/i.test(path)) await everyPartDrawn(page);
}

/**
 * Scrolls an element into view. A card replaced while Playwright waits for it to hold still (its
 * numbers came) is looked up again.
 */
export async function bringIntoView(target: Locator) {
  await expect(async () => {
    await target.evaluate((element) => element.scrollIntoView({ block: 'center' }), undefined, {
      timeout: 2_000,
    });
  }).toPass();
}

/**
 * Brings a section of a driver's file into view until it is drawn: the sections above it grow as
 * they are drawn, and may push it away again before it counted as near.
 */
export async function bringSectionIntoView(section: Locator) {
  await expect(async () => {
    await section.evaluate((element) => element.scrollIntoView({ block: 'center' }), undefined, {
      timeout: 2_000,
    });
    await expect(section).not.toHaveAttribute('data-section-pending', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The dashboard draws a chart, and a driver's file a section, once its card comes near the screen,
 * or every one once a key is pressed (for those who move with Tab alone): a key is pressed, and
 * every part waited for.
 */
export async function everyPartDrawn(page: Page) {
  // Pressed again until every part is drawn: a key pressed before the parts listen is missed.
  await expect(async () => {
    await page.keyboard.press('Shift');
    await expect(page.locator('[data-chart-pending], [data-section-pending]')).toHaveCount(0, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 20_000 });
  await networkQuiet(page);
}

/** The heading that carries a screen's title (whole text, not a part of a longer heading). */
export function screenTitle(page: Page, title: string | RegExp) {
  return page.getByRole('heading', { name: title, exact: typeof title === 'string' });
}
