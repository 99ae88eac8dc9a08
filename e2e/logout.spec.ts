import { expect, readSessionStorage, seedSession, signInThroughUi, test } from './fixtures';

const LANDING = /\/landingPage\/index\.html$/;

test.describe('logout', () => {
  test('clears the session, ends on the landing page and revokes the token', async ({ page }) => {
    await signInThroughUi(page, 'city_dealer');
    const { idToken } = await readSessionStorage(page);
    expect(idToken).toBeTruthy();
    const authorization = { authorization: `Bearer ${idToken}` };
    expect((await page.request.get('/api/auth/me', { headers: authorization })).status()).toBe(200);

    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('button', { name: 'Logout' })
      .click();

    await expect(page).toHaveURL(LANDING);
    expect((await readSessionStorage(page)).length).toBe(0);
    const after = await page.request.get('/api/auth/me', { headers: authorization });
    expect(after.status()).toBe(401);
    expect(await after.json()).toMatchObject({ code: 'UNAUTHORIZED' });

    // Nothing of the session is left: a staff route asks to sign in again.
    await page.goto('/drivers');
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('is also in the account menu', async ({ page }) => {
    await signInThroughUi(page, 'admin');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Logout' }).click();
    await expect(page).toHaveURL(LANDING);
    expect((await readSessionStorage(page)).length).toBe(0);
  });
});

test.describe('an unauthorized answer', () => {
  test('on any screen clears session storage and goes to /', async ({ page }) => {
    await seedSession(page, {
      idToken: 'not.a.token',
      expirationTime: Date.now() + 3_600_000,
      role: 'admin',
    });
    // Whichever request the screen sends first is refused: /api/auth/me, or another the screen
    // asks at once (waiting for /me alone hung for 90 s once when another answered first).
    const unauthorized = page.waitForResponse(
      (r) => new URL(r.url()).pathname.startsWith('/api/') && r.status() === 401,
    );
    await page.goto('/welcome');
    await unauthorized;
    await expect(page).toHaveURL(LANDING);
    expect((await readSessionStorage(page)).length).toBe(0);
  });

  test('an expired session counts as signed out', async ({ page }) => {
    await seedSession(page, {
      idToken: 'expired.session.token',
      expirationTime: Date.now() - 1000,
      role: 'franchise',
    });
    await page.goto('/trips');
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole('heading', { name: 'Admin Sign In' })).toBeVisible();
    expect((await readSessionStorage(page)).idToken).toBeNull();
  });
});
