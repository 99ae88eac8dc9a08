import type { Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { expect, test, type Role } from './fixtures';
import { inHindi, textsIn, untranslated } from './texts';
import { everyPartDrawn, screenLoaded, screenTitle, STAFF_ROUTES } from './routes';

/**
 * axe-core on every screen, in both colour schemes and at both widths (the phone project runs the
 * tests tagged @phone): no serious or critical violation of WCAG 2.1 A and AA. Each screen is
 * loaded once and judged in both schemes; the pages are signed in through the API (the sign-in
 * screen is judged on its own).
 *
 * The same walk holds what every screen owes whoever opens it: each route a role may see opens
 * with its title and without the refusal, and on a phone nothing scrolls sideways. At a phone's
 * width the console is walked in Hindi, its longer texts the harder test of the width, and each
 * screen must show no text of the English catalogue (texts shown on a phone alone, the menu's,
 * included). (Loading every screen once more for these alone cost the suite minutes.)
 */

/** A screen to judge: where it opens, the title it shows, and what is opened on it. */
type Screen = {
  label: string;
  path: string;
  title: string | RegExp;
  /** Opens a part of the screen, its texts in the walk's language. */
  open?: (page: Page, t: Texts) => Promise<void>;
};
type Texts = ReturnType<typeof textsIn>;
type Language = 'en' | 'hi';

const routeScreens = (role: Role): Screen[] =>
  STAFF_ROUTES.filter((route) => route.roles.includes(role)).map((route) => ({
    label: route.path,
    path: route.path,
    title: route.title,
  }));

/** A driver's dashboard and a trip, opened from their lists, in every role's walk. */
const OPENED_SCREENS: Screen[] = [
  {
    label: 'driver dashboard',
    path: '/drivers',
    title: 'Driver List',
    open: async (page, t) => {
      await page
        .getByRole('button', { name: t('More') })
        .first()
        .click();
      await expect(page.getByRole('heading', { name: t('Document details') })).toBeVisible();
      // Every section drawn (they are drawn as they come near the screen), for axe to see.
      await everyPartDrawn(page);
      // Its live position stream never lets the network go idle: wait for the sections.
      await expect(page.getByRole('table', { name: t('Booking history') })).toBeVisible();
      await expect(page.getByRole('table', { name: t('Documents'), exact: true })).toBeVisible();
    },
  },
  {
    label: '/trips with a trip open',
    path: '/trips',
    title: 'List of Trips',
    open: async (page, t) => {
      await page
        .getByRole('button', { name: t('View Details') })
        .first()
        .click();
      await expect(page.getByRole('region', { name: t('Trip details') })).toBeVisible();
    },
  },
];

const ADMIN_SCREENS: Screen[] = [
  ...routeScreens('admin'),
  ...OPENED_SCREENS,
  {
    label: '/cityDealer with a dealer open',
    path: '/cityDealer',
    title: 'City Dealers',
    open: async (page) => {
      await page.locator('main tbody tr').first().click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    label: '/welcome with Help open',
    path: '/welcome',
    title: /^Welcome .+ to Book-My-ETaxi$/,
    open: async (page, t) => {
      await page.getByRole('button', { name: t('Help') }).click();
      await expect(page.getByRole('dialog', { name: t('Help') })).toBeVisible();
    },
  },
];

/**
 * The admin's screens are walked in a few tests rather than one each: a test of its own cost a
 * screen a sign-in and a browser with nothing cached, about twice the screen's own time (9-13 s a
 * screen against 4.5 s walked), while a few still share the two workers.
 */
const ADMIN_PARTS = 4;

/**
 * What a screen owes whoever opens it, beside axe: no refusal, and nothing wider than the screen (a
 * table or a long text that scrolls the whole page sideways), on a phone or a laptop: a list wider
 * than its room scrolls in its own frame.
 */
async function opensWhole(page: Page, label: string, t: Texts) {
  await expect(page.getByText(t('You do not have access to this page.')), label).toHaveCount(0);
  const width = page.viewportSize()!.width;
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${label} scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
}

/**
 * Judges the page as it stands in the light scheme, then in the dark one (the console follows the
 * system's scheme as it changes), and answers every serious violation of both. The dark scheme is
 * judged by the rules a scheme can change (contrast), the light one by them all.
 */
async function violationsInBothSchemes(page: Page, label: string) {
  const found: ({ screen: string } & Awaited<ReturnType<typeof seriousViolations>>[number])[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
    // Dialogs finish their opening transition, and colours theirs, before they are judged. A fixed
    // 300 ms was not enough on a loaded machine: axe once read a button's green label on the grey
    // half-way from white to dark (1.81:1). Endless animations (a spinner) are not waited for.
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) =>
            animation.playState !== 'running' ||
            animation.effect?.getComputedTiming().iterations === Infinity,
        ),
    );
    found.push(
      ...(await seriousViolations(page, [], { colours: scheme === 'dark' })).map((violation) => ({
        screen: `${label}, ${scheme}`,
        ...violation,
      })),
    );
  }
  return found;
}

type Found =
  Awaited<ReturnType<typeof violationsInBothSchemes>>[number] | { screen: string; english: string[] };

/**
 * Opens each screen in turn in the one page (one sign-in, the browser's cache kept, as someone
 * moving through the console has it), checks it opened whole, and answers the violations of all,
 * and in Hindi the English texts each showed.
 */
async function walkScreens(page: Page, screens: Screen[], language: Language) {
  const t = textsIn(language);
  const found: Found[] = [];
  for (const screen of screens) {
    await test.step(screen.label, async () => {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.goto(screen.path);
      await expect(screenTitle(page, t(screen.title))).toBeVisible();
      await screenLoaded(page, screen.path);
      await screen.open?.(page, t);
      await opensWhole(page, screen.label, t);
      if (language === 'hi') {
        const english = await untranslated(page);
        if (english.length) found.push({ screen: screen.label, english });
      }
      found.push(...(await violationsInBothSchemes(page, screen.label)));
    });
  }
  return found;
}

for (const [width, tag, language] of [
  ['desktop', {}, 'en'],
  ['phone', { tag: '@phone' }, 'hi'],
] as const) {
  test.describe(`accessibility, ${width}`, tag, () => {
    const t = textsIn(language);
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: 'light' });
      if (language === 'hi') await inHindi(page);
    });

    test('the sign-in screen', async ({ page }) => {
      await page.goto('/admin');
      await expect(page.getByRole('button', { name: t('Sign In'), exact: true })).toBeVisible();
      expect(await violationsInBothSchemes(page, 'sign-in')).toEqual([]);
    });

    for (const role of ['city_dealer', 'franchise'] as const) {
      test.describe(`as the ${role}`, () => {
        test.use({ role });

        test(`the ${role}'s screens`, async ({ page }) => {
          // A dozen screens or so, each judged twice by axe: 66 s on a machine of this kind one
          // day, 96 s another day with the same code, for one scheme.
          test.setTimeout(240_000);
          expect(await walkScreens(page, [...routeScreens(role), ...OPENED_SCREENS], language)).toEqual([]);
        });
      });
    }

    test.describe('as the admin', () => {
      test.use({ role: 'admin' });

      test('a screen still loading its parts', async ({ page }) => {
        // The documents' answer is held until the loader in their place has been judged: a loader
        // is on screen only for a moment otherwise, and axe met one by chance.
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/api\/drivers\/driver\/[^/]+\/documents(\?|$)/, async (route) => {
          await held;
          await route.continue();
        });
        await page.goto('/drivers');
        await page
          .getByRole('button', { name: t('More') })
          .first()
          .click();
        await expect(page.getByLabel(t('Loading documents'), { exact: true }).first()).toBeVisible();
        const found = await violationsInBothSchemes(page, 'driver dashboard, loading');
        release();
        expect(found).toEqual([]);
      });

      const size = Math.ceil(ADMIN_SCREENS.length / ADMIN_PARTS);
      for (let part = 0; part < ADMIN_PARTS; part++) {
        const screens = ADMIN_SCREENS.slice(part * size, (part + 1) * size);
        test(`the admin's screens, ${screens[0]!.label} to ${screens.at(-1)!.label}`, async ({ page }) => {
          test.setTimeout(240_000);
          expect(await walkScreens(page, screens, language)).toEqual([]);
        });
      }
    });
  });
}
