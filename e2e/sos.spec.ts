import type { APIRequestContext, Page } from '@playwright/test';
import { seriousViolations } from './axe';
import {
  authHeader,
  DEMO_PASSWORD,
  expect,
  fetchDrivers,
  signInThroughApi,
  test,
  type Session,
} from './fixtures';

/**
 * The SOS control room: an alert from a driver's phone reaches every signed-in staff member whose
 * scope holds the driver, wherever they are, and is worked through acknowledge, escalate and
 * resolve. These tests run after every other (the `control-room` project): an open alert shows its
 * banner on every in-scope page, and would stand in the way of the other screens' tests.
 */

// One after another: each counts and reads the alerts in scope, which another test's would change.
test.describe.configure({ mode: 'serial', timeout: 90_000 });
const PUSHED = { timeout: 10_000 };

type Raised = { id: string; number: string };

/** What the driver app does: a device token issued by staff, then the panic button with its position. */
async function pressPanicButton(request: APIRequestContext, session: Session, driverId: string) {
  const issued = await request.post(`/api/drivers/driver/${driverId}/device-tokens`, {
    headers: authHeader(session),
    data: { label: 'SOS browser test phone' },
  });
  expect(issued.status(), await issued.text()).toBe(201);
  const { token } = ((await issued.json()) as { data: { token: string } }).data;
  const raised = await request.post('/api/driver-app/sos', {
    headers: { authorization: `Bearer ${token}` },
    data: { lat: 19.076, long: 72.8777 },
  });
  expect(raised.status(), await raised.text()).toBe(201);
  const alert = ((await raised.json()) as { data: Raised }).data;
  raisedHere.add(alert.number);
  return alert;
}

/** The alerts this worker's test raised: resolved after it, so that no banner outlives its test. */
const raisedHere = new Set<string>();

test.afterEach(async ({ request }) => {
  if (raisedHere.size === 0) return;
  const admin = await signInThroughApi(request, 'admin');
  const open = await request.get('/api/sos', {
    headers: authHeader(admin),
    params: { status: 'open', limit: 200 },
  });
  const { data } = (await open.json()) as {
    data: Record<string, { id: string; number: string; status: string }>;
  };
  for (const alert of Object.values(data).filter((a) => raisedHere.has(a.number))) {
    if (alert.status === 'open')
      await request.patch(`/api/sos/${alert.id}`, {
        headers: authHeader(admin),
        data: { action: 'acknowledge' },
      });
    await request.patch(`/api/sos/${alert.id}`, {
      headers: authHeader(admin),
      data: { action: 'resolve', outcome: 'test' },
    });
  }
  raisedHere.clear();
});

const banner = (page: Page) => page.getByRole('region', { name: 'SOS alerts' });
const card = (page: Page, number: string) => page.getByRole('article', { name: number });

test.describe('an alert from a driver’s phone', () => {
  test.use({ role: 'franchise' });

  test('reaches the franchise wherever it is, with a sound it can mute, and nobody out of scope', async ({
    page,
    browser,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    // A city dealer of another state, signed in at the same time, must see nothing.
    const elsewhere = await browser.newPage();
    const other = await request.post('/api/auth/sign-in', {
      data: { email: 'dealer.bengaluru@bookmyetaxi.test', password: DEMO_PASSWORD, role: 'city_dealer' },
    });
    test.skip(other.status() !== 200, 'The demo data has no second city dealer');
    const otherSession = ((await other.json()) as { data: Session }).data;
    await elsewhere.addInitScript((s) => {
      sessionStorage.setItem('idToken', s.idToken);
      sessionStorage.setItem('expirationTime', String(s.expirationTime));
      sessionStorage.setItem('currentClaim', s.role);
    }, otherSession);
    await elsewhere.goto('/trips');
    await page.goto('/vehicles');
    await expect(page.getByRole('heading', { name: 'Vehicles', level: 2 })).toBeVisible();
    await expect(elsewhere.getByRole('heading', { name: 'List of Trips', level: 2 })).toBeVisible();

    const raised = await pressPanicButton(request, session!, driver!.id);
    const alert = banner(page).getByRole('alert', { name: `${raised.number}: Driver in danger` });
    await expect(alert).toBeVisible(PUSHED);
    await expect(alert).toContainText(driver!.name);
    // The driver's phone, to call and on WhatsApp.
    await expect(alert.locator('a[href^="tel:+91"]').first()).toBeVisible();
    await expect(alert.getByRole('link', { name: /^WhatsApp \+91/ }).first()).toBeVisible();

    // The alarm can be muted, and stays muted on the next screen.
    const mute = banner(page).getByRole('button', { name: 'Mute the alarm' });
    await expect(mute).toHaveAttribute('aria-pressed', 'false');
    await mute.click();
    await expect(mute).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('navigation').getByRole('link', { name: 'Trips' }).click();
    await expect(banner(page).getByRole('button', { name: 'Mute the alarm' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    // Out of scope: no banner for it (the page is on another state's trips).
    await elsewhere.waitForTimeout(1_000);
    await expect(elsewhere.getByRole('alert', { name: new RegExp(raised.number) })).toHaveCount(0);

    // Acknowledged from the banner: it goes, and the control room shows who and how fast.
    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(alert).toHaveCount(0, PUSHED);
    await page.getByRole('navigation').getByRole('link', { name: 'SOS control room' }).click();
    await expect(page.getByRole('heading', { name: 'SOS control room', level: 2 })).toBeVisible();
    const opened = card(page, raised.number);
    await expect(opened).toContainText('Acknowledged');
    await expect(opened).toContainText(/Acknowledged in \d+ s/);
    await elsewhere.close();
  });
});

test.describe('the inbox', () => {
  test.use({ role: 'franchise' });

  test('counts an SOS alert unread, leads to the control room, and marks it read', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    await page.goto('/drivers');
    const bell = page.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    // What the franchise has unread already (earlier tests' alerts), once the inbox, which loads
    // after the first paint, shows it.
    const listed = await request.get('/api/notifications', {
      headers: authHeader(session),
      params: { limit: 1 },
    });
    const unreadBefore = ((await listed.json()) as { unread: number }).unread;
    await expect(bell).toHaveAccessibleName(
      unreadBefore === 0 ? 'Notifications' : `Notifications, ${unreadBefore} unread`,
      PUSHED,
    );

    const raised = await pressPanicButton(request, session!, driver!.id);
    await expect(bell).toHaveAccessibleName(`Notifications, ${unreadBefore + 1} unread`, PUSHED);
    await bell.click();
    const inbox = page.getByRole('dialog', { name: 'Notifications' });
    const item = inbox.getByRole('button', {
      name: new RegExp(`^SOS ${raised.number}: Driver in danger \\(unread\\)`),
    });
    await expect(item).toBeVisible();
    await item.click();
    await expect(page).toHaveURL(/\/sos$/);
    await expect(page.getByRole('heading', { name: 'SOS control room', level: 2 })).toBeVisible();
    await expect(bell).toHaveAccessibleName(
      unreadBefore === 0 ? 'Notifications' : `Notifications, ${unreadBefore} unread`,
    );

    // Opened, it reads as read.
    await bell.click();
    await expect(
      inbox.getByRole('button', {
        name: new RegExp(`^SOS ${raised.number}: Driver in danger(?! \\(unread\\))`),
      }),
    ).toBeVisible();
    await page.keyboard.press('Escape');

    // Two more, then all read at once.
    await pressPanicButton(request, session!, driver!.id);
    await pressPanicButton(request, session!, driver!.id);
    await expect(bell).toHaveAccessibleName(`Notifications, ${unreadBefore + 2} unread`, PUSHED);
    await bell.click();
    await inbox.getByRole('button', { name: 'Mark all read' }).click();
    await expect(bell).toHaveAccessibleName('Notifications');
  });
});

test.describe('the control room as an admin', () => {
  test.use({ role: 'admin' });

  test('logs an alert from a call, escalates it to the police and resolves it into the history', async ({
    page,
    request,
    session,
  }) => {
    const [driver] = await fetchDrivers(request, session!);
    await page.goto('/sos');
    await expect(page.getByRole('heading', { name: 'SOS control room', level: 2 })).toBeVisible();

    // Logged from a call: who is in danger is required, the driver found by name.
    await page.getByRole('button', { name: 'Log an SOS' }).click();
    const form = page.getByRole('dialog', { name: 'Log an SOS from a call' });
    await form.getByRole('button', { name: 'Raise the alert' }).click();
    await expect(form.getByText('Choose who is in danger: the driver or the passenger.')).toBeVisible();
    await form.getByRole('radio', { name: 'Passenger in danger' }).check();
    await form.getByRole('combobox', { name: 'Driver' }).fill(driver!.name.split(' ')[0]!);
    await page
      .getByRole('option', { name: new RegExp(driver!.name) })
      .first()
      .click();
    await form.getByLabel('Note').fill('Caller says the passenger feels unwell.');
    await form.getByRole('button', { name: 'Raise the alert' }).click();
    await expect(form).toHaveCount(0);
    const logged = page.getByText(/^SOS SOS-\d+ raised\.$/);
    await expect(logged).toBeVisible();
    const number = (await logged.textContent())!.match(/SOS-\d+/)![0];
    raisedHere.add(number);

    // Open alerts first, with the banner at the top until someone acknowledges.
    const opened = card(page, number);
    await expect(opened).toContainText('Passenger in danger');
    await expect(opened).toContainText('Caller says the passenger feels unwell.');
    await expect(banner(page).getByRole('alert', { name: `${number}: Passenger in danger` })).toBeVisible(
      PUSHED,
    );
    await opened.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(opened.getByText('Acknowledged', { exact: true })).toBeVisible();
    // It leaves the banner (which the phone's control room test may hold open alerts of its own).
    await expect(banner(page).getByRole('alert', { name: new RegExp(`^${number}:`) })).toHaveCount(0);

    await opened.getByRole('button', { name: 'Escalate' }).click();
    await opened.getByLabel('Escalate to').selectOption({ label: 'Police (112)' });
    await opened.getByLabel('Note').fill('PCR van on its way');
    await opened.getByRole('button', { name: 'Escalate' }).last().click();
    await expect(opened).toContainText(/Escalated to Police \(112\) .* IST .*PCR van on its way/);

    await opened.getByRole('button', { name: 'Resolve' }).click();
    await opened.getByLabel('Outcome').selectOption({ label: 'Help given' });
    await opened.getByRole('button', { name: 'Resolve' }).last().click();

    // Into the history, which exports what it shows.
    const history = page.getByRole('region', { name: 'History' });
    const resolved = history.getByRole('article', { name: number });
    await expect(resolved).toBeVisible();
    await expect(resolved).toContainText('Resolved');
    await expect(resolved).toContainText('Help given');
    await history.getByLabel('Outcome').selectOption({ label: 'False alarm' });
    await expect(history.getByRole('article', { name: number })).toHaveCount(0);
    await history.getByLabel('Outcome').selectOption({ label: 'Help given' });
    await expect(resolved).toBeVisible();
    const download = page.waitForEvent('download');
    await history.getByRole('button', { name: /Export/ }).click();
    const file = await (await download).path();
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(file, 'utf8')).toContain(number);
  });
});

test.describe('the control room on a phone', { tag: '@phone' }, () => {
  test.use({ role: 'admin' });

  test('fits the width with open alerts and their banner, and passes axe, light and dark', async ({
    page,
    request,
    session,
  }) => {
    const drivers = (await fetchDrivers(request, session!)).slice(0, 5);
    const raised = [await pressPanicButton(request, session!, drivers[0]!.id)];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto('/sos');
      await expect(card(page, raised[0]!.number)).toBeVisible();
      await expect(banner(page).getByRole('alert').first()).toBeVisible(PUSHED);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page), scheme).toEqual([]);
    }

    // Five at once: on a phone the banner shows the oldest in full and counts the others, leaving
    // the screen usable (six in full covered a phone's whole screen, the last buttons out of reach).
    for (const driver of drivers.slice(1)) raised.push(await pressPanicButton(request, session!, driver.id));
    const shown = banner(page).getByRole('alert');
    await expect(banner(page)).toContainText('4 more open alerts are waiting in the control room.', PUSHED);
    await expect(shown).toHaveCount(1);
    await expect(shown).toHaveAccessibleName(`${raised[0]!.number}: Driver in danger`);
    await expect(banner(page).getByRole('link', { name: 'Open control room' }).last()).toBeInViewport();
    // Acknowledged, the next oldest takes its place.
    await shown.getByRole('button', { name: 'Acknowledge' }).click();
    await expect(shown).toHaveAccessibleName(`${raised[1]!.number}: Driver in danger`);
    await expect(banner(page)).toContainText('3 more open alerts are waiting in the control room.');
    expect((await banner(page).boundingBox())!.height).toBeLessThanOrEqual(0.7 * page.viewportSize()!.height);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
    ).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page, ['[aria-label="SOS alerts"]'])).toEqual([]);
  });
});
