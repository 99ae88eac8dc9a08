import { ACCOUNTS, ROLES, authHeader, expect, test } from './fixtures';
import { NAV_LINKS, STAFF_ROUTES, screenTitle, titleOf } from './routes';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const role of ROLES) {
  test.describe(`as ${ACCOUNTS[role].tab}`, () => {
    test.use({ role });

    test('the navigation bar shows exactly the role’s links, each opening its screen', async ({ page }) => {
      await page.goto('/welcome');
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      const links = nav.getByRole('link');
      // By accessible name: a link may carry a count beside its label (Compliance).
      await expect(links).toHaveCount(NAV_LINKS[role].length);
      for (const [index, link] of NAV_LINKS[role].entries()) {
        await expect(links.nth(index)).toHaveAccessibleName(link.label);
      }
      await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();

      for (const link of NAV_LINKS[role]) {
        await test.step(link.label, async () => {
          await nav.getByRole('link', { name: link.label, exact: true }).click();
          await expect(page).toHaveURL(new RegExp(`${escape(link.path)}$`));
          await expect(screenTitle(page, titleOf(link.path))).toBeVisible();
        });
      }
    });

    const refused = STAFF_ROUTES.filter((r) => !r.roles.includes(role));
    if (refused.length > 0) {
      test('every other route is refused with a clear page', async ({ page }) => {
        for (const route of refused) {
          await test.step(route.path, async () => {
            await page.goto(route.path);
            await expect(page.getByText('You do not have access to this page.')).toBeVisible();
            await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
            await expect(screenTitle(page, route.title)).toHaveCount(0);
          });
        }
      });
    }
  });
}

test.describe('routes', () => {
  test.use({ role: 'admin' });

  test('paths match without regard to case', async ({ page }) => {
    for (const path of ['/createcitydealer', '/createCityDealer', '/CREATEFRANCHISE', '/displayfranchise']) {
      await test.step(path, async () => {
        await page.goto(path);
        await expect(screenTitle(page, titleOf(path))).toBeVisible();
      });
    }
  });
});

test.describe('refused page', () => {
  test.use({ role: 'city_dealer' });

  test('leads back to the welcome screen', async ({ page }) => {
    await page.goto('/customers');
    await page.getByRole('link', { name: 'Back to Welcome' }).click();
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(screenTitle(page, titleOf('/welcome'))).toBeVisible();
  });
});

test.describe('signed out', () => {
  test('a staff route sends the visitor to the sign-in screen', async ({ page }) => {
    await page.goto('/drivers');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  });
});

test.describe('header', () => {
  test.use({ role: 'franchise' });

  test('shows the product title, Help and Contact Us, each opening a dialog', async ({ page }) => {
    await page.goto('/welcome');
    const header = page.getByRole('banner').filter({ has: page.getByRole('heading', { level: 1 }) });
    await expect(header.getByRole('heading', { name: 'Book-My-ETaxi', level: 1 })).toBeVisible();

    await header.getByRole('button', { name: 'Help' }).click();
    const help = page.getByRole('dialog', { name: 'Help' });
    await expect(help).toBeVisible();
    await expect(help).toContainText('navigation bar');
    await page.keyboard.press('Escape');
    await expect(help).toBeHidden();

    await header.getByRole('button', { name: 'Contact Us' }).click();
    const contact = page.getByRole('dialog', { name: 'Contact Us' });
    await expect(contact).toBeVisible();
    await expect(contact.getByRole('link', { name: 'support@bookmyetaxi.in' })).toBeVisible();
    // The dialog's title bar is no second banner landmark beside the page's header.
    await expect(contact.getByRole('banner')).toHaveCount(0);
    await contact.getByRole('button', { name: 'Close' }).click();
    await expect(contact).toBeHidden();
  });

  test('the dialogs’ close buttons say what they do', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('button', { name: 'Help' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Help' }).getByRole('button', { name: 'Close' }),
    ).toBeVisible();
  });
});

test.describe('header when signed out', () => {
  test('stands on the sign-in screen, without the navigation bar', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByRole('banner').getByRole('heading', { name: 'Book-My-ETaxi' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Help' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
  });
});

test.describe('welcome screen', () => {
  test.use({ role: 'city_dealer' });

  test('keeps its greeting and shows today’s trips, drivers live and documents awaiting review', async ({
    page,
    request,
    session,
  }) => {
    const today = new Date(Date.now() + 5.5 * 3_600_000).toISOString().slice(0, 10);
    const get = async (path: string) => {
      const response = await request.get(`/api${path}`, { headers: authHeader(session) });
      expect(response.status()).toBe(200);
      return (await response.json()).data;
    };
    const overview = await get(`/stats/overview?from=${today}&to=${today}`);
    await page.goto('/welcome');
    await expect(page.getByRole('heading', { name: /^Welcome/ })).toBeVisible();
    const tasks = page.getByRole('region', { name: 'Your day at a glance' });
    const grouped = (n: number) => n.toLocaleString('en-IN');
    await expect(tasks.getByRole('link')).toHaveCount(3, { timeout: 20_000 });
    await expect(tasks.getByRole('link', { name: `${grouped(overview.trips)} Trips today` })).toBeVisible();
    // Drivers live and documents awaiting review change as positions age and other tests review.
    await expect(tasks.getByRole('link', { name: /^[\d,]+ Drivers live now$/ })).toBeVisible();
    await tasks.getByRole('link', { name: /^[\d,]+ Documents awaiting review$/ }).click();
    await expect(page).toHaveURL(/\/compliance\?view=review$/);
  });
});
