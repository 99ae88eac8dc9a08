import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ROLES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { CityDealer } from '@bmet/shared/schemas/account';
import { accounts, auditLog } from '../../db/schema';
import { createAccount, createDriver } from '../../seed/factories';
import { authHeader, postSignIn, signInAs, useTestApp } from '../../../test/test-app';

const t = useTestApp();

/** A tag in names and emails, so that a test finds its own rows among the worker's others. */
const newTag = () => `t${randomUUID().slice(0, 8)}`;

const STRONG = 'a-strong-dealer-passphrase';

function createDealer(token: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/city_dealer/create',
    headers: authHeader(token),
    payload: body,
  });
}

function listDealers(token: string, body?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/city_dealer/getcitydealers',
    headers: authHeader(token),
    ...(body ? { payload: body } : {}),
  });
}

const dealersOf = (response: { json: () => { data: Record<string, CityDealer> } }) =>
  Object.values(response.json().data);

const me = (token: string) =>
  t.app.inject({ method: 'GET', url: '/api/auth/me', headers: authHeader(token) });

describe('POST /api/city_dealer/create', () => {
  it('creates a city dealer that signs in on the City Dealer tab only, with the spec answer', async () => {
    const admin = await signInAs(t, 'admin');
    const tag = newTag();
    const email = `${tag}@dealers.example.in`;
    const response = await createDealer(admin.token, {
      uuid: 'whatever-the-client-sends',
      name: `Pune Mobility ${tag}`,
      email: `  ${email.toUpperCase()} `,
      state: 'maharashtra',
      password: STRONG,
      currentUser: 'someone-else',
    });

    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({ message: 'New user has been created', uid: expect.any(String) });

    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, data.uid));
    expect(row).toMatchObject({
      role: 'city_dealer',
      email,
      displayName: `Pune Mobility ${tag}`,
      state: 'maharashtra',
      dealerId: null,
      disabled: false,
      // The creator comes from the token, never from the body.
      createdBy: admin.account.id,
    });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);

    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'city-dealers'), eq(auditLog.resourceId, data.uid)));
    expect(audit).toMatchObject({ actorId: admin.account.id, action: 'create', before: null });
    expect(JSON.stringify(audit!.after)).not.toContain(STRONG);

    for (const role of ROLES) {
      const signIn = await postSignIn(t.app, { email, password: STRONG, role });
      expect(signIn.statusCode, role).toBe(role === 'city_dealer' ? 200 : 403);
    }
  });

  it('refuses an email already in use, whatever its case, with 409 and the spec message', async () => {
    const admin = await signInAs(t, 'admin');
    const existing = await createAccount(t.db, { role: 'franchise' });
    const response = await createDealer(admin.token, {
      name: 'Someone',
      email: existing.email.toUpperCase(),
      state: 'goa',
      password: STRONG,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({
      error: 'The email address is already in use by another account.',
      code: 'CONFLICT',
    });
  });

  it.each([
    ['no name', { email: 'a@b.in', password: STRONG, state: 'goa' }],
    ['a blank name', { name: '   ', email: 'a@b.in', password: STRONG, state: 'goa' }],
    ['no email', { name: 'N', password: STRONG, state: 'goa' }],
    ['no password', { name: 'N', email: 'a@b.in', password: '', state: 'goa' }],
    ['no state', { name: 'N', email: 'a@b.in', password: STRONG, state: '' }],
    ['nothing at all', {}],
  ])('answers 400 "Please fill in all fields" to %s', async (_name, body) => {
    const admin = await signInAs(t, 'admin');
    const response = await createDealer(admin.token, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'Please fill in all fields', code: 'VALIDATION' });
  });

  it.each([
    ['short', m.passwordTooShort({ min: 8 })],
    ['password123', m.passwordTooCommon()],
    ['x'.repeat(129), m.passwordTooLong({ max: 128 })],
  ])('refuses the weak password %s, saying what is needed', async (password, message) => {
    const admin = await signInAs(t, 'admin');
    const email = `${newTag()}@dealers.example.in`;
    const response = await createDealer(admin.token, { name: 'N', email, password, state: 'goa' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: message,
      code: 'VALIDATION',
      fieldErrors: { password: [message] },
    });
    expect(await t.db.select().from(accounts).where(eq(accounts.email, email))).toHaveLength(0);
  });

  it('refuses an invalid email and an unknown state', async () => {
    const admin = await signInAs(t, 'admin');
    const badEmail = await createDealer(admin.token, {
      name: 'N',
      email: 'not-an-email',
      password: STRONG,
      state: 'goa',
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().error).toBe('email: Enter a valid email address.');
    const badState = await createDealer(admin.token, {
      name: 'N',
      email: `${newTag()}@dealers.example.in`,
      password: STRONG,
      state: 'atlantis',
    });
    expect(badState.statusCode).toBe(400);
    expect(badState.json().error).toBe(`state: ${m.chooseState()}`);
  });

  it.each(['city_dealer', 'franchise'] as const)('answers 403 to a %s', async (role) => {
    const caller = await signInAs(t, role);
    const email = `${newTag()}@dealers.example.in`;
    const response = await createDealer(caller.token, { name: 'N', email, password: STRONG, state: 'goa' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
    expect(await t.db.select().from(accounts).where(eq(accounts.email, email))).toHaveLength(0);
  });
});

describe('POST /api/city_dealer/getcitydealers', () => {
  it('pages the dealers newest first, with their franchise and driver counts', async () => {
    const admin = await signInAs(t, 'admin');
    const tag = newTag();
    const day = 86_400_000;
    const dealers = [];
    for (let i = 0; i < 3; i++) {
      dealers.push(
        await createAccount(t.db, {
          role: 'city_dealer',
          displayName: `Dealer ${i} ${tag}`,
          state: 'karnataka',
          createdAt: new Date(Date.now() - (10 - i) * day),
        }),
      );
    }
    const [oldest, , newest] = dealers;
    const f1 = await createAccount(t.db, { role: 'franchise', dealerId: newest!.id, state: 'karnataka' });
    await createAccount(t.db, {
      role: 'franchise',
      dealerId: newest!.id,
      state: 'karnataka',
      disabled: true,
    });
    await createDriver(t.db, { franchiseId: f1.id, state: 'karnataka' });
    await createDriver(t.db, { franchiseId: f1.id, state: 'karnataka' });
    await createDriver(t.db, { franchiseId: f1.id, state: 'karnataka', deletedAt: new Date() });

    const first = await listDealers(admin.token, { uid: '', q: tag, limit: 2 });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.total).toBe(3);
    expect(Object.keys(body.data)).toEqual([dealers[2]!.id, dealers[1]!.id]);
    expect(body.data[newest!.id]).toEqual({
      id: newest!.id,
      name: `Dealer 2 ${tag}`,
      email: newest!.email,
      state: 'karnataka',
      createdAt: newest!.createdAt.toISOString(),
      disabled: false,
      franchiseCount: 2,
      driverCount: 2,
    });
    expect(body.nextCursor).toEqual(expect.any(String));

    const second = await listDealers(admin.token, { q: tag, limit: 2, cursor: body.nextCursor });
    expect(Object.keys(second.json().data)).toEqual([oldest!.id]);
    expect(second.json().nextCursor).toBeNull();
    expect(dealersOf(second)[0]).toMatchObject({ franchiseCount: 0, driverCount: 0 });
  });

  it('searches name and email case-insensitively, filters by state, and lists only dealers', async () => {
    const admin = await signInAs(t, 'admin');
    const tag = newTag();
    const goa = await createAccount(t.db, { role: 'city_dealer', displayName: `Goa ${tag}`, state: 'goa' });
    const kerala = await createAccount(t.db, {
      role: 'city_dealer',
      email: `kerala.${tag}@dealers.example.in`,
      displayName: 'Kochi Cabs',
      state: 'kerala',
    });
    await createAccount(t.db, { role: 'franchise', displayName: `Franchise ${tag}`, state: 'goa' });

    const all = dealersOf(await listDealers(admin.token, { q: tag.toUpperCase() }));
    expect(all.map((d) => d.id).sort()).toEqual([goa.id, kerala.id].sort());
    const inGoa = dealersOf(await listDealers(admin.token, { q: tag, state: 'goa' }));
    expect(inGoa.map((d) => d.id)).toEqual([goa.id]);
  });

  it('answers a first page to a request without a body, as the spec sends it', async () => {
    const admin = await signInAs(t, 'admin');
    const response = await listDealers(admin.token);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      data: expect.any(Object),
      nextCursor: body.nextCursor,
      total: expect.any(Number),
      totalCapped: false,
    });
    expect(Object.keys(body.data).length).toBeLessThanOrEqual(50);
  });

  it('refuses a cursor it did not hand out', async () => {
    const admin = await signInAs(t, 'admin');
    const response = await listDealers(admin.token, { cursor: 'bm90LWEtY3Vyc29y' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: m.invalidCursor(),
      code: 'VALIDATION',
      fieldErrors: { cursor: [m.invalidCursor()] },
    });
  });

  it.each(['city_dealer', 'franchise'] as const)('answers 403 to a %s', async (role) => {
    const caller = await signInAs(t, role);
    expect((await listDealers(caller.token, {})).statusCode).toBe(403);
  });
});

describe('PATCH /api/city_dealer/:id', () => {
  const patch = (token: string, id: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/city_dealer/${id}`,
      headers: authHeader(token),
      payload: body,
    });

  it('edits name and state', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await createAccount(t.db, { role: 'city_dealer', state: 'goa' });
    const response = await patch(admin.token, dealer.id, { name: '  Panaji EV Partners ', state: 'kerala' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      id: dealer.id,
      name: 'Panaji EV Partners',
      state: 'kerala',
    });
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'city-dealers'), eq(auditLog.resourceId, dealer.id)));
    expect(audit).toMatchObject({
      action: 'update',
      before: { name: dealer.displayName, state: 'goa' },
      after: { name: 'Panaji EV Partners', state: 'kerala' },
    });
  });

  it('disabling ends its tokens and refuses its sign-in; enabling lets it back in', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await signInAs(t, 'city_dealer');
    const credentials = {
      email: dealer.account.email,
      password: dealer.account.password,
      role: 'city_dealer',
    };

    const disabled = await patch(admin.token, dealer.account.id, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json().data.disabled).toBe(true);
    expect((await me(dealer.token)).statusCode).toBe(401);
    const refused = await postSignIn(t.app, credentials);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: m.accountDisabled(), code: 'FORBIDDEN' });

    expect((await patch(admin.token, dealer.account.id, { disabled: false })).json().data.disabled).toBe(
      false,
    );
    expect((await postSignIn(t.app, credentials)).statusCode).toBe(200);
  });

  it('keeps the state while franchises work under the dealer', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await createAccount(t.db, { role: 'city_dealer', state: 'goa' });
    await createAccount(t.db, { role: 'franchise', state: 'goa', dealerId: dealer.id });
    const response = await patch(admin.token, dealer.id, { state: 'kerala' });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ error: m.stateLockedByFranchises(), code: 'CONFLICT' });
    expect((await patch(admin.token, dealer.id, { name: 'Renamed', state: 'goa' })).statusCode).toBe(200);
  });

  it('answers 400 to an empty change and 404 to an id that is not a city dealer', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await createAccount(t.db, { role: 'city_dealer' });
    const empty = await patch(admin.token, dealer.id, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toBe(m.nothingToChange());
    const franchise = await createAccount(t.db, { role: 'franchise' });
    expect((await patch(admin.token, franchise.id, { name: 'X' })).statusCode).toBe(404);
  });
});

describe('DELETE /api/city_dealer/:id', () => {
  const remove = (token: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/city_dealer/${id}`, headers: authHeader(token) });

  it('ends the dealer: no sign-in, no token, out of the list; its franchises stay, unassigned', async () => {
    const admin = await signInAs(t, 'admin');
    const tag = newTag();
    const dealer = await signInAs(t, 'city_dealer', { displayName: `Gone ${tag}`, state: 'gujarat' });
    const franchise = await createAccount(t.db, {
      role: 'franchise',
      displayName: `Orphan ${tag}`,
      state: 'gujarat',
      dealerId: dealer.account.id,
    });

    const response = await remove(admin.token, dealer.account.id);
    expect(response.statusCode).toBe(204);

    expect((await me(dealer.token)).statusCode).toBe(401);
    const signIn = await postSignIn(t.app, {
      email: dealer.account.email,
      password: dealer.account.password,
      role: 'city_dealer',
    });
    expect(signIn.statusCode).toBe(403);
    expect(dealersOf(await listDealers(admin.token, { q: tag }))).toEqual([]);

    const [row] = await t.db.select().from(accounts).where(eq(accounts.id, franchise.id));
    expect(row!.dealerId).toBeNull();
    const franchises = await t.app.inject({
      method: 'GET',
      url: `/api/franchise/getFranchise?q=${tag}`,
      headers: authHeader(admin.token),
    });
    expect(Object.keys(franchises.json().data)).toEqual([franchise.id]);
    expect(franchises.json().data[franchise.id]).toMatchObject({ dealerId: null, dealerName: null });

    const [deleted] = await t.db.select().from(accounts).where(eq(accounts.id, dealer.account.id));
    expect(deleted).toMatchObject({ disabled: true, deletedBy: admin.account.id });
    expect(deleted!.deletedAt).toBeInstanceOf(Date);

    expect((await remove(admin.token, dealer.account.id)).statusCode).toBe(404);
  });

  it('answers 404 to an id that is not a city dealer', async () => {
    const admin = await signInAs(t, 'admin');
    const franchise = await createAccount(t.db, { role: 'franchise' });
    expect((await remove(admin.token, franchise.id)).statusCode).toBe(404);
    expect((await remove(admin.token, admin.account.id)).statusCode).toBe(404);
  });
});

describe('GET /api/city_dealer/:id', () => {
  const getOne = (token: string, id: string) =>
    t.app.inject({ method: 'GET', url: `/api/city_dealer/${id}`, headers: authHeader(token) });

  it('answers one city dealer as the list shows it, to admins only; 404 once deleted', async () => {
    const admin = await signInAs(t, 'admin');
    const dealer = await createAccount(t.db, {
      role: 'city_dealer',
      state: 'kerala',
      displayName: `Dealer ${newTag()}`,
    });
    const listed = dealersOf(await listDealers(admin.token, { q: dealer.email })).find(
      (row) => row.id === dealer.id,
    );
    expect(listed).toBeDefined();
    const response = await getOne(admin.token, dealer.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ data: listed });

    for (const role of ['city_dealer', 'franchise'] as const) {
      const other = await signInAs(t, role);
      expect((await getOne(other.token, dealer.id)).statusCode, role).toBe(403);
    }
    expect((await getOne(admin.token, randomUUID())).statusCode).toBe(404);
    await t.db.update(accounts).set({ deletedAt: new Date() }).where(eq(accounts.id, dealer.id));
    expect((await getOne(admin.token, dealer.id)).statusCode).toBe(404);
  });
});
