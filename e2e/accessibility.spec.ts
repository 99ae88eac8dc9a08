import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, signInThroughUi, test } from './fixtures';
import { screenLoaded, screenTitle, STAFF_ROUTES } from './routes';

/**
 * axe-core on every screen, in both colour schemes and at both widths (the phone project runs the
 * tests tagged @phone): no serious or critical violation of WCAG 2.1 A and AA.
 */

type Screen = { path: string; title: string | RegExp | null; open?: (page: Page) => Promise<void> };

// A role's screens are judged in one test; two cores shared with the server may be slow.
test.describe.configure({ timeout: 90_000 });

const SCREENS: Screen[] = [
  ...STAFF_ROUTES.map((route) => ({ path: route.path, title: route.title })),
  { path: 'driver dashboard', title: null },
  {
    path: '/trips with a trip open',
    title: 'List of Trips',
    open: async (page) => {
      await page.getByRole('button', { name: 'View Details' }).first().click();
      await expect(page.getByRole('region', { name: 'Trip details' })).toBeVisible();
    },
  },
  {
    path: '/cityDealer with a dealer open',
    title: 'City Dealers',
    open: async (page) => {
      await page
        .getByRole('row', { name: /^Open / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    path: '/welcome with Help open',
    title: /^Welcome .+ to Book-My-ETaxi$/,
    open: async (page) => {
      await page.getByRole('button', { name: 'Help' }).click();
      await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
    },
  },
];

for (const [width, tag] of [
  ['desktop', {}],
  ['phone', { tag: '@phone' }],
] as const) {
  for (const scheme of ['light', 'dark'] as const) {
    test.describe(`accessibility, ${width}, ${scheme}`, tag, () => {
      test.beforeEach(async ({ page }) => {
        await page.emulateMedia({ colorScheme: scheme });
      });

      test('the sign-in screen', async ({ page }) => {
        await page.goto('/admin');
        await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
        expect(await seriousViolations(page)).toEqual([]);
      });

      for (const role of ['city_dealer', 'franchise'] as const) {
        test(`the ${role}'s screens`, async ({ page }) => {
          // Ten screens or so, each judged by axe: 66 s on a machine of this kind one day, 96 s
          // another day with the same code.
          test.setTimeout(180_000);
          await signInThroughUi(page, role);
          for (const route of STAFF_ROUTES.filter((r) => r.roles.includes(role))) {
            await page.goto(route.path);
            await expect(screenTitle(page, route.title)).toBeVisible();
            await screenLoaded(page, route.path);
            await page.waitForTimeout(300);
            expect(await seriousViolations(page), route.path).toEqual([]);
          }
        });
      }

      for (const screen of SCREENS) {
        test(`the admin's ${screen.path}`, async ({ page }) => {
          await signInThroughUi(page, 'admin');
          if (screen.title) {
            await page.goto(screen.path.split(' ')[0]!);
            await expect(screenTitle(page, screen.title)).toBeVisible();
            await screenLoaded(page, screen.path.split(' ')[0]!);
            await screen.open?.(page);
          } else {
            await page.goto('/drivers');
            await page.getByRole('button', { name: 'More' }).first().click();
            await expect(page.getByRole('heading', { name: 'Document details' })).toBeVisible();
            // Its live position stream never lets the network go idle: wait for the sections.
            await expect(page.getByRole('table', { name: 'Booking history' })).toBeVisible();
            await expect(page.getByRole('table', { name: 'Documents' })).toBeVisible();
          }
          // Dialogs finish their opening transition before they are judged.
          await page.waitForTimeout(300);
          expect(await seriousViolations(page)).toEqual([]);
        });
      }
    });
  }
}
