import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ROLES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { Franchise } from '@bmet/shared/schemas/account';
import { accounts } from '../../db/schema';
import { createAccount, createDriver } from '../../seed/factories';
import { authHeader, postSignIn, signInAs, useTestApp } from '../../../test/test-app';
import { stateLabel } from '@bmet/shared/labels';

const t = useTestApp();

const newTag = () => `t${randomUUID().slice(0, 8)}`;
const STRONG = 'a-strong-franchise-passphrase';

function createFranchise(token: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/franchise/create',
    headers: authHeader(token),
    payload: body,
  });
}

async function listFranchises(token: string, query: Record<string, string> = {}) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/franchise/getFranchise?${new URLSearchParams(query).toString()}`,
    headers: authHeader(token),
  });
  return response;
}

const franchisesOf = (response: { json: () => { data: Record<string, Franchise> } }) =>
  Object.values(response.json().data);

const patch = (token: string, id: string, body: Record<string, unknown>) =>
  t.app.inject({ method: 'PATCH', url: `/api/franchise/${id}`, headers: authHeader(token), payload: body });

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

const body = (overrides: Record<string, unknown> = {}) => ({
  uuid: '',
  name: `Franchise ${newTag()}`,
  email: `${newTag()}@franchises.example.in`,
  password: STRONG,
  state: 'maharashtra',
  currentUser: '',
  ...overrides,
});

describe('POST /api/franchise/create', () => {
  it('a city dealer creates a franchise of its own, in its state, that signs in on the Franchise tab only', async () => {
    const dealer = await signInAs(t, 'city_dealer', { state: 'maharashtra' });
    const other = await createAccount(t.db, { role: 'city_dealer', state: 'maharashtra' });
    const input = body({ dealerId: other.id, currentUser: other.id });
    const response = await createFranchise(dealer.token, input);

    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({ message: m.userCreated(), uid: expect.any(String) });
    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, data.uid));
    // Its own, whatever the body says.
    expect(row).toMatchObject({
      role: 'franchise',
      state: 'maharashtra',
      dealerId: dealer.account.id,
      createdBy: dealer.account.id,
    });

    for (const role of ROLES) {
      const signIn = await postSignIn(t.app, { email: input.email, password: STRONG, role });
      expect(signIn.statusCode, role).toBe(role === 'franchise' ? 200 : 403);
    }
  });

  it('a city dealer cannot create a franchise in another state', async () => {
    const dealer = await signInAs(t, 'city_dealer', { state: 'maharashtra' });
    const response = await createFranchise(dealer.token, body({ state: 'goa' }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: m.dealerOwnStateOnly({ state: stateLabel('maharashtra') }),
      code: 'VALIDATION',
      fieldErrors: { state: [m.dealerOwnStateOnly({ state: stateLabel('maharashtra') })] },
    });
  });

  it('an admin creates a franchise under no dealer, or under an active dealer of its state', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await createAccount(t.db, { role: 'city_dealer', state: 'kerala' });

    const alone = await createFranchise(admin.token, body({ state: 'kerala' }));
    expect(alone.statusCode).toBe(201);
    const [aloneRow] = await t.db.select().from(accounts).where(eq(accounts.id, alone.json().data.uid));
    expect(aloneRow).toMatchObject({ dealerId: null, createdBy: admin.account.id });

    const under = await createFranchise(admin.token, body({ state: 'kerala', dealerId: dealer.id }));
    expect(under.statusCode).toBe(201);
    const [underRow] = await t.db.select().from(accounts).where(eq(accounts.id, under.json().data.uid));
    expect(underRow!.dealerId).toBe(dealer.id);
  });

  it.each([
    [
      'a dealer of another state',
      async () => (await createAccount(t.db, { role: 'city_dealer', state: 'goa' })).id,
    ],
    [
      'a disabled dealer',
      async () => (await createAccount(t.db, { role: 'city_dealer', state: 'kerala', disabled: true })).id,
    ],
    ['a franchise', async () => (await createAccount(t.db, { role: 'franchise', state: 'kerala' })).id],
    ['an unknown id', async () => randomUUID()],
  ])('an admin cannot put a franchise under %s', async (_name, dealerIdOf) => {
    const admin = await signInAs(t, 'admin');
    const response = await createFranchise(
      admin.token,
      body({ state: 'kerala', dealerId: await dealerIdOf() }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(m.dealerOfOtherState());
  });

  it('answers 403 to a franchise', async () => {
    const franchise = await signInAs(t, 'franchise');
    const input = body();
    const response = await createFranchise(franchise.token, input);
    expect(response.statusCode).toBe(403);
    expect(await t.db.select().from(accounts).where(eq(accounts.email, input.email))).toHaveLength(0);
  });

  it('gives the spec messages for missing fields, a used email and a weak password', async () => {
    const dealer = await signInAs(t, 'city_dealer');
    const missing = await createFranchise(dealer.token, body({ name: '' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Please fill in all fields');
    const used = await createFranchise(dealer.token, body({ email: dealer.account.email }));
    expect(used.statusCode).toBe(409);
    expect(used.json().error).toBe('The email address is already in use by another account.');
    const weak = await createFranchise(dealer.token, body({ password: 'iloveyou' }));
    expect(weak.statusCode).toBe(400);
    expect(weak.json().error).toBe(m.passwordTooCommon());
  });
});

describe('GET /api/franchise/getFranchise', () => {
  it('gives a city dealer only its own franchises and an admin all of them, newest first', async () => {
    const tag = newTag();
    const dealer = await signInAs(t, 'city_dealer', { displayName: `Dealer ${tag}` });
    const otherDealer = await createAccount(t.db, { role: 'city_dealer' });
    const day = 86_400_000;
    const older = await createAccount(t.db, {
      role: 'franchise',
      displayName: `Older ${tag}`,
      dealerId: dealer.account.id,
      createdAt: new Date(Date.now() - 3 * day),
    });
    const newer = await createAccount(t.db, {
      role: 'franchise',
      displayName: `Newer ${tag}`,
      dealerId: dealer.account.id,
      createdAt: new Date(Date.now() - day),
    });
    const foreign = await createAccount(t.db, {
      role: 'franchise',
      displayName: `Foreign ${tag}`,
      dealerId: otherDealer.id,
    });
    await createDriver(t.db, { franchiseId: newer.id, state: 'maharashtra' });

    const mine = await listFranchises(dealer.token, { q: tag });
    expect(mine.statusCode).toBe(200);
    expect(Object.keys(mine.json().data)).toEqual([newer.id, older.id]);
    expect(mine.json().total).toBe(2);
    expect(mine.json().data[newer.id]).toEqual({
      id: newer.id,
      name: `Newer ${tag}`,
      email: newer.email,
      state: 'maharashtra',
      createdAt: newer.createdAt.toISOString(),
      disabled: false,
      dealerId: dealer.account.id,
      dealerName: `Dealer ${tag}`,
      driverCount: 1,
    });
    // Every franchise of the dealer, without a search: the other dealer's never shows.
    const unfiltered = franchisesOf(await listFranchises(dealer.token, { limit: '200' }));
    expect(unfiltered.map((f) => f.id)).not.toContain(foreign.id);
    expect(unfiltered.every((f) => f.dealerId === dealer.account.id)).toBe(true);

    const admin = await signInAs(t, 'admin');
    const all = await listFranchises(admin.token, { q: tag, limit: '2' });
    expect(Object.keys(all.json().data)).toEqual([foreign.id, newer.id]);
    const next = await listFranchises(admin.token, { q: tag, limit: '2', cursor: all.json().nextCursor });
    expect(Object.keys(next.json().data)).toEqual([older.id]);
  });

  it('answers 403 to a franchise', async () => {
    const franchise = await signInAs(t, 'franchise');
    expect((await listFranchises(franchise.token)).statusCode).toBe(403);
  });
});

describe('PATCH /api/franchise/:id', () => {
  it('the owning dealer renames, disables (tokens end, sign-in refused) and enables its franchise', async () => {
    const dealer = await signInAs(t, 'city_dealer');
    const franchise = await signInAs(t, 'franchise', { dealerId: dealer.account.id });
    const id = franchise.account.id;

    const renamed = await patch(dealer.token, id, { name: 'Thane EV Cabs' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().data).toMatchObject({ id, name: 'Thane EV Cabs', disabled: false });

    expect((await patch(dealer.token, id, { disabled: true })).json().data.disabled).toBe(true);
    expect((await me(franchise.token)).statusCode).toBe(401);
    const credentials = {
      email: franchise.account.email,
      password: franchise.account.password,
      role: 'franchise',
    };
    const refused = await postSignIn(t.app, credentials);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe(m.accountDisabled());

    expect((await patch(dealer.token, id, { disabled: false })).statusCode).toBe(200);
    expect((await postSignIn(t.app, credentials)).statusCode).toBe(200);
  });

  it("answers 404 to another dealer's franchise and 403 when a dealer moves a franchise", async () => {
    const dealer = await signInAs(t, 'city_dealer');
    const someoneElses = await createAccount(t.db, { role: 'franchise' });
    expect((await patch(dealer.token, someoneElses.id, { name: 'Mine now' })).statusCode).toBe(404);

    const own = await createAccount(t.db, { role: 'franchise', dealerId: dealer.account.id });
    const other = await createAccount(t.db, { role: 'city_dealer' });
    const moved = await patch(dealer.token, own.id, { dealerId: other.id });
    expect(moved.statusCode).toBe(403);
    const outOfState = await patch(dealer.token, own.id, { state: 'goa' });
    expect(outOfState.statusCode).toBe(400);
    expect(outOfState.json().error).toBe(m.dealerOwnStateOnly({ state: stateLabel('maharashtra') }));
  });

  it('an admin moves a franchise to a dealer of its state, and changes its state only without drivers', async () => {
    const admin = await signInAs(t, 'admin');
    const first = await createAccount(t.db, { role: 'city_dealer', state: 'goa' });
    const second = await createAccount(t.db, { role: 'city_dealer', state: 'goa' });
    const elsewhere = await createAccount(t.db, { role: 'city_dealer', state: 'kerala' });
    const franchise = await createAccount(t.db, { role: 'franchise', state: 'goa', dealerId: first.id });

    const moved = await patch(admin.token, franchise.id, { dealerId: second.id });
    expect(moved.statusCode).toBe(200);
    expect(moved.json().data).toMatchObject({ dealerId: second.id });

    const wrongState = await patch(admin.token, franchise.id, { dealerId: elsewhere.id });
    expect(wrongState.statusCode).toBe(400);
    expect(wrongState.json().error).toBe(m.dealerOfOtherState());
    // Changing the state alone would leave it under a dealer of another state.
    expect((await patch(admin.token, franchise.id, { state: 'kerala' })).statusCode).toBe(400);

    const both = await patch(admin.token, franchise.id, { state: 'kerala', dealerId: elsewhere.id });
    expect(both.statusCode).toBe(200);
    expect(both.json().data).toMatchObject({ state: 'kerala', dealerId: elsewhere.id });

    await createDriver(t.db, { franchiseId: franchise.id, state: 'kerala' });
    const withDrivers = await patch(admin.token, franchise.id, { state: 'goa', dealerId: null });
    expect(withDrivers.statusCode).toBe(409);
    expect(withDrivers.json().error).toBe(m.stateLockedByDrivers());

    const unassigned = await patch(admin.token, franchise.id, { dealerId: null });
    expect(unassigned.json().data).toMatchObject({ dealerId: null, dealerName: null });
  });
});

describe('GET /api/franchise/:id', () => {
  const getOne = (token: string, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/franchise/${id}`, headers: authHeader(token) });

  it('answers one franchise as the list shows it, to an admin and to the city dealer it works under', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await signInAs(t, 'city_dealer', { state: 'maharashtra' });
    const franchise = await createAccount(t.db, {
      role: 'franchise',
      state: 'maharashtra',
      dealerId: dealer.account.id,
      displayName: `Franchise ${newTag()}`,
    });
    const listed = franchisesOf(await listFranchises(admin.token, { q: franchise.email })).find(
      (row) => row.id === franchise.id,
    );
    expect(listed).toBeDefined();
    for (const who of [admin, dealer]) {
      const response = await getOne(who.token, franchise.id);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ data: listed });
    }
  });

  it("is 404 for another dealer's franchise, a deleted or unknown one, and refused to franchises", async () => {
    const dealer = await signInAs(t, 'city_dealer', { state: 'maharashtra' });
    const stranger = await createAccount(t.db, { role: 'franchise', state: 'maharashtra' });
    expect((await getOne(dealer.token, stranger.id)).statusCode).toBe(404);
    expect((await getOne(dealer.token, randomUUID())).statusCode).toBe(404);
    const admin = await signInAs(t, 'admin');
    await t.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, stranger.id));
    expect((await getOne(admin.token, stranger.id)).statusCode).toBe(404);
    const franchise = await signInAs(t, 'franchise');
    expect((await getOne(franchise.token, franchise.account.id)).statusCode).toBe(403);
    expect((await getOne(admin.token, 'not-an-id')).statusCode).toBe(400);
  });
});
