import type { APIRequestContext, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import { authHeader, expect, fetchDrivers, signInThroughApi, test, type Session } from './fixtures';

/**
 * The grievance desk: complaints logged by staff, worked through their steps against a deadline of
 * three working days. The spec creates every grievance and holiday it looks at.
 */

const NETWORK = { timeout: 20_000 };

const unique = () => Math.random().toString(36).slice(2, 8);

type Logged = { id: string; number: string };

/** Logs a grievance through the API, as `session`. */
async function logGrievance(
  request: APIRequestContext,
  session: Session,
  fields: Record<string, unknown> = {},
): Promise<Logged> {
  const response = await request.post('/api/grievances', {
    headers: authHeader(session),
    data: {
      complainantKind: 'customer',
      complainantName: `Meera ${unique()}`,
      complainantPhone: '98765 43210',
      category: 'fare',
      description: 'Charged twice for one ride.',
      ...fields,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Logged }).data;
}

const deskRows = (page: Page) => page.getByRole('table', { name: 'Grievances' }).locator('tbody tr');
const fitsTheWidth = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

test.describe('grievances as an admin', () => {
  test.use({ role: 'admin' });

  test('logs a grievance, finds it on the desk, and works it through to resolved and back', async ({
    page,
  }) => {
    const name = `Ravi Kulkarni ${unique()}`;
    await page.goto('/welcome');
    await page.getByRole('navigation').getByRole('link', { name: 'Grievances' }).click();
    await expect(page.getByRole('heading', { name: 'Grievances', level: 2 })).toBeVisible(NETWORK);
    await page.getByRole('button', { name: 'Log a grievance' }).click();
    const form = page.getByRole('dialog', { name: 'Log a grievance' });
    await form.getByLabel(/^Complainant's name/).fill(name);
    await form.getByLabel('Phone', { exact: true }).fill('98200 12345');
    await form.getByLabel(/^Category/).selectOption({ label: 'Behaviour' });
    await form.getByLabel('Priority').selectOption({ label: 'High' });

    // Received tomorrow: refused before it is sent.
    const tomorrow = new Date(Date.now() + 330 * 60_000 + 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = tomorrow.split('-');
    const today = await form.getByLabel('Date received').inputValue();
    await form.getByLabel('Date received').fill(`${day}/${month}/${year}`);
    await form.getByRole('button', { name: 'Log grievance' }).click();
    await expect(form.getByText('The time received cannot be in the future.')).toBeVisible();
    await form.getByLabel('Date received').fill(today);

    // No description: the server's words beside the field.
    await form.getByRole('button', { name: 'Log grievance' }).click();
    await expect(form.getByText('Describe the complaint.')).toBeVisible(NETWORK);
    await form.getByLabel(/^Description/).fill('The driver was rude and refused the air conditioning.');
    await form.getByRole('button', { name: 'Log grievance' }).click();

    const heading = page.getByRole('heading', { level: 2, name: /^GR-\d{4}-\d+$/ });
    await expect(heading).toBeVisible(NETWORK);
    const number = (await heading.textContent())!;
    await expect(page.getByText(`Grievance ${number} logged.`)).toBeVisible();
    const details = page.getByRole('region', { name: 'Complaint' });
    await expect(details).toContainText('Open');
    await expect(details).toContainText(/\d+ (min|h|d) left/);
    await expect(page.getByRole('region', { name: 'Complainant' })).toContainText(name);
    await expect(
      page.getByRole('region', { name: 'Complainant' }).getByRole('link', { name: /WhatsApp/ }),
    ).toHaveAttribute('href', 'https://wa.me/919820012345');
    const grievanceUrl = page.url();

    // On the desk, soonest deadline first, with its clock.
    await page.getByRole('link', { name: 'Back to grievances' }).click();
    await page.getByLabel('Search grievances').fill(number);
    await expect(deskRows(page)).toHaveCount(1, NETWORK);
    const row = deskRows(page).first();
    await expect(row).toContainText(name);
    await expect(row).toContainText('Behaviour');
    await expect(row).toContainText('High');
    await expect(row).toContainText(/\d+ (min|h|d) left/);
    await expect(page.getByText('Showing 1 of 1 grievances')).toBeVisible();
    await row.click();
    await expect(page).toHaveURL(grievanceUrl);

    // In progress, with a note.
    const steps = page.getByRole('region', { name: 'Next step' });
    await expect(steps.getByRole('button')).toHaveText([
      'Mark in progress',
      'Wait for the complainant',
      'Resolve',
    ]);
    await steps.getByRole('button', { name: 'Mark in progress' }).click();
    const step = page.getByRole('dialog', { name: `Mark in progress · ${number}` });
    await step.getByLabel('Note (optional)').fill('Called the driver.');
    await step.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText(`Grievance ${number} is now: In progress.`)).toBeVisible(NETWORK);
    const timeline = page.getByRole('region', { name: 'Timeline' });
    await expect(timeline).toContainText('Moved to In progress');
    await expect(timeline).toContainText('Called the driver.');
    await expect(steps.getByRole('button')).toHaveText(['Wait for the complainant', 'Resolve']);

    // A comment inside the team.
    await timeline.getByLabel('Comment for the team').fill('Driver says the AC was broken.');
    await timeline.getByRole('button', { name: 'Add comment' }).click();
    await expect(
      timeline.getByRole('listitem').filter({ hasText: 'Driver says the AC was broken.' }),
    ).toContainText('by Asha Rao', NETWORK);

    // On paper: the category and priority as text, with nothing to change or add.
    await page.emulateMedia({ media: 'print' });
    await expect(details.getByText('Behaviour', { exact: true }).filter({ visible: true })).toHaveCount(1);
    await expect(details.getByText('High', { exact: true }).filter({ visible: true })).toHaveCount(1);
    await expect(details.getByLabel(/^Category/)).toBeHidden();
    await expect(details.getByText('Priority', { exact: true }).filter({ visible: true })).toHaveCount(1);
    await expect(timeline.getByLabel('Comment for the team')).toBeHidden();
    await expect(steps).toBeHidden();
    await page.emulateMedia({ media: 'screen' });
    await expect(details.getByLabel(/^Category/)).toHaveValue('behaviour');
    await expect(details.getByText('Priority', { exact: true }).filter({ visible: true })).toHaveCount(1);

    // Resolved only with what the complainant is told.
    await steps.getByRole('button', { name: 'Resolve' }).click();
    const resolve = page.getByRole('dialog', { name: `Resolve · ${number}` });
    await resolve.getByRole('button', { name: 'Confirm' }).click();
    await expect(resolve.getByText('Write the resolution the complainant will be told.')).toBeVisible(
      NETWORK,
    );
    await resolve
      .getByLabel(/^Resolution told to the complainant/)
      .fill('We apologised; the driver was warned.');
    await resolve.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByRole('region', { name: 'Resolution' })).toContainText(
      'We apologised; the driver was warned.',
      NETWORK,
    );
    await expect(details).toContainText('Resolved');
    await expect(details).toContainText('Resolved in time');
    await expect(steps.getByRole('button')).toHaveText(['Close', 'Reopen']);

    // Not on the desk's own view any more (not yet resolved), but under All.
    await page.goto(`/grievances?q=${number}`);
    await expect(page.getByText(`No grievances match “${number}”.`)).toBeVisible(NETWORK);
    await page.getByLabel('Status').selectOption({ label: 'All' });
    await expect(deskRows(page)).toHaveCount(1, NETWORK);
    await expect(deskRows(page).first()).toContainText('Resolved');

    // Reopened: back against a deadline.
    await deskRows(page).first().click();
    await steps.getByRole('button', { name: 'Reopen' }).click();
    await page
      .getByRole('dialog', { name: `Reopen · ${number}` })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await expect(page.getByText(`Grievance ${number} is now: Reopened.`)).toBeVisible(NETWORK);
    await expect(details).toContainText('Reopened');
    await expect(details).toContainText(/\d+ (min|h|d) left/);
    await expect(timeline).toContainText('Moved to Reopened');
  });

  test('lists a holiday, removes it, and names the grievance officer', async ({ page }) => {
    const holiday = `Test day ${unique()}`;
    const year = new Date().getUTCFullYear() + 1;
    await page.goto('/grievances');
    await page.getByRole('link', { name: 'Rules, holidays and officer' }).click();
    await expect(page.getByRole('heading', { name: 'Grievance settings', level: 2 })).toBeVisible(NETWORK);

    const holidays = page.getByRole('region', { name: 'Holidays' });
    await holidays.getByLabel('Date', { exact: true }).fill(`14/07/${year}`);
    await holidays.getByLabel('Where', { exact: true }).selectOption({ label: 'Maharashtra' });
    await holidays.getByLabel('Name', { exact: true }).fill(holiday);
    await holidays.getByRole('button', { name: 'Add holiday' }).click();
    await expect(page.getByText(`Holiday ${holiday} added.`)).toBeVisible(NETWORK);
    await expect(holidays.getByLabel('Year')).toHaveValue(String(year));
    const row = holidays.getByRole('row').filter({ hasText: holiday });
    await expect(row).toContainText(`14/07/${year}`);
    await expect(row).toContainText('Maharashtra');

    await row.getByRole('button', { name: `Remove ${holiday}` }).click();
    await page
      .getByRole('dialog', { name: `Remove the holiday ${holiday}?` })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(page.getByText(`Holiday ${holiday} removed.`)).toBeVisible(NETWORK);
    await expect(row).toHaveCount(0);

    const officer = page.getByRole('region', { name: 'Grievance officer' });
    await officer.getByLabel('Officer').selectOption('admin@bookmyetaxi.test');
    await officer.getByRole('button', { name: 'Save officer' }).click();
    await expect(page.getByText('Grievance officer saved.')).toBeVisible(NETWORK);
    await expect(officer).toContainText('Now: Asha Rao (admin@bookmyetaxi.test)');
  });

  test("sets a state's rules from a later day, refusing what is out of bounds", async ({ page }) => {
    // A day two years on, of this run only: the rules wait for it, and nothing of today's desk changes.
    const year = new Date().getUTCFullYear() + 2;
    const day = `${String(1 + Math.floor(Math.random() * 28)).padStart(2, '0')}/${String(1 + Math.floor(Math.random() * 12)).padStart(2, '0')}/${year}`;
    await page.goto('/grievances/settings');
    const rules = page.getByRole('region', { name: 'Rules by state' });
    const delhi = rules.getByRole('table', { name: 'Rules in effect today in Delhi' });
    await expect(delhi.getByRole('row', { name: /^Complaints calling for action/ })).toContainText(
      '15%',
      NETWORK,
    );
    await expect(delhi.getByRole('row', { name: /^Ratings below 3 stars/ })).toContainText('25%');

    await rules.getByLabel('State').selectOption({ label: 'Tripura' });
    const today = rules.getByRole('table', { name: 'Rules in effect today in Tripura' });
    await expect(today.getByRole('row', { name: /^Complaints calling for action/ })).toContainText(
      'No such rule',
    );
    const save = rules.getByRole('button', { name: 'Save the rules of Tripura' });
    // A rule switched on needs its share: an empty one is named, and nothing is saved.
    await rules.getByLabel('Act on low ratings').check();
    await save.click();
    await expect(rules.getByText('This field is required.')).toBeVisible();
    await rules.getByLabel('Act on low ratings').uncheck();

    const days = rules.getByLabel('Working days to resolve a grievance');
    await days.fill('0');
    await rules.getByLabel('Act on complaints').check();
    await rules.getByLabel("Complaints calling for action (% of the month's rides)").fill('20');
    await rules.getByLabel('These rules take effect on').fill(day);
    await save.click();
    await expect(rules.getByText('Must be at least 1.')).toBeVisible(NETWORK);
    await expect(rules.getByText(`From ${day}`)).toHaveCount(0);

    await days.fill('4');
    await save.click();
    await expect(rules.getByRole('status')).toHaveText(
      `The rules of Tripura were saved, in effect from ${day}.`,
      NETWORK,
    );
    const later = rules.getByRole('table', { name: `From ${day}` });
    await expect(later.getByRole('row', { name: /^Working days/ })).toContainText('4');
    await expect(later.getByRole('row', { name: /^Complaints calling for action/ })).toContainText('20%');
    await expect(today.getByRole('row', { name: /^Working days/ })).toContainText('3');
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`the desk and a grievance pass axe, ${scheme}`, async ({ page, request, session }) => {
      const logged = await logGrievance(request, session!, { priority: 'urgent' });
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`/grievances?q=${logged.number}`);
      await expect(deskRows(page)).toHaveCount(1, NETWORK);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/grievances/${logged.id}`);
      await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('Logged', NETWORK);
      expect(await seriousViolations(page)).toEqual([]);
    });
  }
});

test.describe('grievances as a franchise', () => {
  test.use({ role: 'franchise' });

  test('logs one about its own driver and sees none about another franchise’s', async ({
    page,
    request,
    session,
  }) => {
    const own = await fetchDrivers(request, session!, '/api/franchise');
    const ownIds = new Set(own.map((driver) => driver.id));
    const admin = await signInThroughApi(request, 'admin');
    const other = (await fetchDrivers(request, admin)).find(
      (driver) => driver.franchiseId && !ownIds.has(driver.id),
    );
    const elsewhere = other ? await logGrievance(request, admin, { driverId: other.id }) : null;

    // From the driver's page: the form opens about that driver.
    const driver = own[0]!;
    await page.goto(`/grievances?driverId=${driver.id}`);
    const form = page.getByRole('dialog', { name: 'Log a grievance' });
    await expect(form.getByLabel('Driver', { exact: true })).toHaveValue(new RegExp(driver.name), NETWORK);
    await form.getByLabel(/^Complainant's name/).fill(`Farah ${unique()}`);
    await form.getByLabel(/^Category/).selectOption({ label: 'Vehicle' });
    await form.getByLabel(/^Description/).fill('The car smelled of smoke.');
    await form.getByRole('button', { name: 'Log grievance' }).click();
    const heading = page.getByRole('heading', { level: 2, name: /^GR-\d{4}-\d+$/ });
    await expect(heading).toBeVisible(NETWORK);
    const about = page.getByRole('region', { name: 'What it is about' });
    await expect(about.getByRole('link', { name: driver.name })).toHaveAttribute(
      'href',
      `/drivers/${driver.id}`,
    );

    await page.goto('/grievances?status=all');
    await expect(deskRows(page).first()).toBeVisible(NETWORK);
    await expect(page.getByRole('link', { name: 'Rules, holidays and officer' })).toHaveCount(0);
    if (elsewhere) {
      await page.getByLabel('Search grievances').fill(elsewhere.number);
      await expect(page.getByText(`No grievances match “${elsewhere.number}”.`)).toBeVisible(NETWORK);
      await page.goto(`/grievances/${elsewhere.id}`);
      await expect(page.getByRole('alert')).toBeVisible(NETWORK);
      await expect(page.getByRole('heading', { name: elsewhere.number })).toHaveCount(0);
    }
  });
});

test.describe('grievances as a city dealer', () => {
  test.use({ role: 'city_dealer' });

  test('opens the desk, without the admins’ settings', async ({ page }) => {
    await page.goto('/welcome');
    await page.getByRole('navigation').getByRole('link', { name: 'Grievances' }).click();
    await expect(page.getByRole('heading', { name: 'Grievances', level: 2 })).toBeVisible(NETWORK);
    await expect(page.getByText(/Showing \d+ of \d+ grievances|No grievances here\./)).toBeVisible(NETWORK);
    await expect(page.getByRole('button', { name: 'Log a grievance' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Rules, holidays and officer' })).toHaveCount(0);
    await page.goto('/grievances/settings');
    await expect(page.getByRole('heading', { name: 'Not allowed' })).toBeVisible();
  });

  test('reads the monthly report of its state and the drivers needing action', async ({
    page,
    request,
    session,
  }) => {
    const asked = await request.get('/api/grievances/report', { headers: authHeader(session) });
    expect(asked.status(), await asked.text()).toBe(200);
    const report = ((await asked.json()) as { data: { month: string; total: { received: number } } }).data;
    const needing = await request.get('/api/grievances/drivers-needing-action', {
      headers: authHeader(session),
    });
    const { drivers } = ((await needing.json()) as { data: { drivers: { driverName: string }[] } }).data;

    await page.goto('/grievances');
    await page.getByRole('link', { name: 'Monthly report' }).click();
    await expect(page.getByRole('heading', { name: 'Grievance report', level: 2 })).toBeVisible(NETWORK);
    const month = page.getByLabel('Month');
    await expect(month).toHaveValue(report.month);
    if (report.total.received > 0) {
      const all = page.getByRole('row', { name: /^All grievances/ });
      await expect(all.getByRole('cell').first()).toHaveText(String(report.total.received));
      await expect(page.getByRole('table', { name: 'By category' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'By franchise' })).toBeVisible();
    } else {
      await expect(page.getByText(/^No grievances were received in /)).toBeVisible();
    }
    await expect(page.getByRole('heading', { name: 'Drivers needing action' })).toBeVisible();
    if (drivers.length > 0)
      await expect(
        page
          .getByRole('table', { name: 'Drivers needing action' })
          .getByRole('link', { name: drivers[0]!.driverName }),
      ).toBeVisible();
    else await expect(page.getByText(/^No driver needs action for /)).toBeVisible();

    // A month with nothing in it says so, by its name.
    await month.selectOption({ index: 11 });
    const name = (await month.locator('option:checked').textContent())!;
    await expect(page.getByText(`No grievances were received in ${name}.`)).toBeVisible(NETWORK);
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`grievances on a phone, ${scheme}`, { tag: '@phone' }, () => {
    test.use({ role: 'admin' });

    test('fit the width and pass axe @phone', async ({ page, request, session }) => {
      const logged = await logGrievance(request, session!);
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/grievances');
      await expect(deskRows(page).first()).toBeVisible(NETWORK);
      await fitsTheWidth(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`/grievances/${logged.id}`);
      await expect(page.getByRole('region', { name: 'Timeline' })).toContainText('Logged', NETWORK);
      await fitsTheWidth(page);
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto('/grievances/settings');
      await expect(page.getByRole('region', { name: 'Holidays' })).toBeVisible(NETWORK);
      await fitsTheWidth(page);
    });
  });
}
