import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { cityDealerListBodySchema } from '@bmet/shared/schemas/account';
import { alias } from 'drizzle-orm/pg-core';
import { STATES, type State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { CityDealer, Franchise } from '@bmet/shared/schemas/account';
import { ACCOUNT_SORTS, DEFAULT_ORDERS, resolveSort } from '@bmet/shared/schemas/sort';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, drivers } from '../../db/schema';
import { NO_FIREBASE_WRITES, queueStaffWrite, type FirebaseWrites } from '../../infra/firebase-outbox';
import { recordAudit, type Actor } from '../../infra/audit';
import {
  cappedCountQuery,
  escapeLikePattern,
  toListTotal,
  totalFromCursor,
  withTotal,
  type ListTotal,
} from '../../lib/paging';
import {
  afterKey,
  decodeSortedCursor,
  keyColumn,
  orderByKey,
  sortedPage,
  type KeyPart,
} from '../../lib/sort';
import { refuseNul } from '../../lib/text';
import { revokeAccountSessions } from '../auth/repository';
import { type ScopeCaller, cityDealerAccountScope, franchiseAccountScope } from '../../lib/scope';
import { stateLabel } from '@bmet/shared/labels';

/** The caller of a change: whose scope applies, and who the audit log names. */
export type AccountCaller = ScopeCaller & { state: string | null; requestId: string };

const actorOf = (caller: AccountCaller): Actor => ({ id: caller.id, requestId: caller.requestId });

const dealer = alias(accounts, 'dealer');

const isState = (value: string | null): value is State => STATES.includes(value as State);

const common = {
  id: accounts.id,
  name: sql<string>`coalesce(${accounts.displayName}, '')`,
  email: accounts.email,
  state: accounts.state,
  createdAt: accounts.createdAt,
  disabled: accounts.disabled,
};

// The outer row in the subqueries below, spelled out: Drizzle leaves columns unqualified in a
// single-table select, where a bare "id" would be ambiguous inside the subquery.
const outerId = sql.raw('"accounts"."id"');

// Counts per row of a page (at most 200 rows), each answered by an index: accounts_dealer_idx
// and drivers_franchise_name_idx.
const dealerColumns = {
  ...common,
  franchiseCount: sql<number>`(select count(*) from ${accounts} f
    where f.dealer_id = ${outerId} and f.role = 'franchise' and f.deleted_at is null)`.mapWith(Number),
  driverCount: sql<number>`(select count(*) from ${drivers} d join ${accounts} f on f.id = d.franchise_id
    where f.dealer_id = ${outerId} and f.role = 'franchise' and f.deleted_at is null
      and d.deleted_at is null)`.mapWith(Number),
};

const franchiseColumns = {
  ...common,
  dealerId: accounts.dealerId,
  dealerName: sql<string | null>`coalesce(${dealer.displayName}, ${dealer.email})`,
  driverCount: sql<number>`(select count(*) from ${drivers} d
    where d.franchise_id = ${outerId} and d.deleted_at is null)`.mapWith(Number),
};

function selectCityDealers(db: DbExecutor) {
  return db.select(dealerColumns).from(accounts).$dynamic();
}
function selectFranchises(db: DbExecutor) {
  return db
    .select(franchiseColumns)
    .from(accounts)
    .leftJoin(dealer, eq(dealer.id, accounts.dealerId))
    .$dynamic();
}
type DealerRow = Awaited<ReturnType<typeof selectCityDealers>>[number];
type FranchiseRow = Awaited<ReturnType<typeof selectFranchises>>[number];

function toCityDealer(row: DealerRow): CityDealer {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    state: isState(row.state) ? row.state : null,
    createdAt: row.createdAt.toISOString(),
    disabled: row.disabled,
    franchiseCount: row.franchiseCount,
    driverCount: row.driverCount,
  };
}

function toFranchise(row: FranchiseRow): Franchise {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    state: isState(row.state) ? row.state : null,
    createdAt: row.createdAt.toISOString(),
    disabled: row.disabled,
    dealerId: row.dealerId,
    dealerName: row.dealerName,
    driverCount: row.driverCount,
  };
}

// ---------------------------------------------------------------------------------------------
// Lists: newest first unless sorted otherwise, keyset on the sort's key

/** The name a list shows and sorts by (accounts_role_name_idx is built on it). */
const accountName = sql`coalesce(${accounts.displayName}, '')`;
const id: KeyPart = { expression: accounts.id, type: 'uuid' };

/** Each sort's key, served by accounts_role_created_idx, accounts_role_name_idx and accounts_role_state_idx. */
type AccountSort = (typeof ACCOUNT_SORTS)[number];

const ACCOUNT_KEYS: Record<AccountSort, KeyPart[]> = {
  createdAt: [{ expression: accounts.createdAt, type: 'timestamptz' }, id],
  name: [{ expression: accountName, type: 'text' }, id],
  state: [
    { expression: sql`coalesce(${accounts.state}, '')`, type: 'text' },
    { expression: accountName, type: 'text' },
    id,
  ],
};

/** An account list as the API reads it: the city dealer list's fields (the franchise list's and a state). */
export type AccountListOptions = Omit<z.output<typeof cityDealerListBodySchema>, 'uid'>;

function listConditions(scope: SQL, options: AccountListOptions): SQL {
  const conditions: SQL[] = [scope];
  refuseNul('q', options.q);
  if (options.q) {
    const pattern = `%${escapeLikePattern(options.q)}%`;
    conditions.push(
      sql`(coalesce(${accounts.displayName}, '') || ' ' || ${accounts.email}) ilike ${pattern}`,
    );
  }
  if (options.state) conditions.push(eq(accounts.state, options.state));
  return and(...conditions)!;
}

/** The sort, its key, the cursor's key and the rows after it. */
function listOrder(options: AccountListOptions) {
  const sort = resolveSort(ACCOUNT_SORTS, DEFAULT_ORDERS.accounts, options);
  const parts = ACCOUNT_KEYS[sort.field];
  const after = options.cursor ? decodeSortedCursor(options.cursor, sort, parts) : null;
  return {
    sort,
    after,
    orderBy: orderByKey(parts, sort.order),
    keyset: after ? afterKey(parts, sort.order, after.k) : undefined,
    sortKey: keyColumn(parts),
  };
}

/** The first page counts (up to the cap); the next pages' cursors carry that count on. */
async function totalOf(db: Db, filter: SQL, after: { t?: number; tc?: boolean } | null): Promise<ListTotal> {
  return totalFromCursor(after) ?? toListTotal(await cappedCountQuery(db, accounts, filter));
}

/** A page of the city dealers in the chosen order, with their franchise and driver counts. */
export async function findCityDealers(db: Db, options: AccountListOptions) {
  const filter = listConditions(cityDealerAccountScope(accounts), options);
  const order = listOrder(options);
  const rows = await db
    .select({ ...dealerColumns, sortKey: order.sortKey })
    .from(accounts)
    .where(and(filter, order.keyset))
    .orderBy(...order.orderBy)
    .limit(options.limit + 1);
  const total = await totalOf(db, filter, order.after);
  const page = sortedPage(rows, options.limit, order.sort, withTotal({}, total));
  return { rows: page.shown.map(toCityDealer), nextCursor: page.nextCursor, ...total };
}

/** A page of the franchises the caller may see in the chosen order, with their dealer and driver count. */
export async function findFranchises(db: Db, caller: ScopeCaller, options: AccountListOptions) {
  const filter = listConditions(franchiseAccountScope(caller, accounts), options);
  const order = listOrder(options);
  const rows = await db
    .select({ ...franchiseColumns, sortKey: order.sortKey })
    .from(accounts)
    .leftJoin(dealer, eq(dealer.id, accounts.dealerId))
    .where(and(filter, order.keyset))
    .orderBy(...order.orderBy)
    .limit(options.limit + 1);
  const total = await totalOf(db, filter, order.after);
  const page = sortedPage(rows, options.limit, order.sort, withTotal({}, total));
  return { rows: page.shown.map(toFranchise), nextCursor: page.nextCursor, ...total };
}

export async function findCityDealer(db: DbExecutor, id: string): Promise<CityDealer | null> {
  const [row] = await selectCityDealers(db)
    .where(and(eq(accounts.id, id), cityDealerAccountScope(accounts)))
    .limit(1);
  return row ? toCityDealer(row) : null;
}

export async function findFranchise(
  db: DbExecutor,
  caller: ScopeCaller,
  id: string,
): Promise<Franchise | null> {
  const [row] = await selectFranchises(db)
    .where(and(eq(accounts.id, id), franchiseAccountScope(caller, accounts)))
    .limit(1);
  return row ? toFranchise(row) : null;
}

// ---------------------------------------------------------------------------------------------
// Creation

/** Whether an error (or one it wraps) is PostgreSQL's unique violation. */
function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export type NewStaffAccount = {
  role: 'city_dealer' | 'franchise';
  name: string;
  email: string;
  passwordHash: string;
  state: State;
  dealerId: string | null;
};

/** Creates a city dealer or franchise account with its audit row, in one transaction. */
export async function insertStaffAccount(
  db: Db,
  caller: AccountCaller,
  input: NewStaffAccount,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
): Promise<string> {
  try {
    return await db.transaction(async (tx) => {
      if (input.dealerId) {
        // Checked again under a share lock: a dealer moved to another state, disabled or deleted
        // meanwhile must not end up with this franchise (updates and deletes lock the same row).
        const [dealer] = await tx
          .select({ state: accounts.state })
          .from(accounts)
          .where(
            and(
              eq(accounts.id, input.dealerId),
              cityDealerAccountScope(accounts),
              eq(accounts.disabled, false),
            ),
          )
          .for('share');
        if (!dealer || dealer.state !== input.state) {
          throw new AppError('VALIDATION', m.dealerOfOtherState(), {
            fieldErrors: { dealerId: [m.dealerOfOtherState()] },
          });
        }
      }
      const [row] = await tx
        .insert(accounts)
        .values({
          role: input.role,
          email: input.email,
          displayName: input.name,
          state: input.state,
          dealerId: input.dealerId,
          passwordHash: input.passwordHash,
          createdBy: caller.id,
        })
        .returning({ id: accounts.id });
      await recordAudit(tx, actorOf(caller), {
        action: 'create',
        resource: input.role === 'city_dealer' ? 'city-dealers' : 'franchises',
        resourceId: row!.id,
        before: null,
        after: { name: input.name, email: input.email, state: input.state, dealerId: input.dealerId },
      });
      await queueStaffWrite(tx, writes, row!.id);
      return row!.id;
    });
  } catch (error) {
    // Two creations racing with one email: the unique index decides, with the spec's message.
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', m.emailInUse());
    throw error;
  }
}

/** A city dealer that is neither deleted nor disabled, or null. */
export async function findActiveCityDealer(db: DbExecutor, id: string) {
  const [row] = await db
    .select({ id: accounts.id, state: accounts.state })
    .from(accounts)
    .where(and(eq(accounts.id, id), cityDealerAccountScope(accounts), eq(accounts.disabled, false)))
    .limit(1);
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// Changes

export type AccountPatch = { name?: string; state?: State; disabled?: boolean; dealerId?: string | null };

async function lockAccount(tx: DbExecutor, id: string, scope: SQL) {
  const [row] = await tx
    .select({
      id: accounts.id,
      name: accounts.displayName,
      state: accounts.state,
      disabled: accounts.disabled,
      dealerId: accounts.dealerId,
    })
    .from(accounts)
    .where(and(eq(accounts.id, id), scope))
    .for('update');
  return row ?? null;
}

/** The fields a patch changes, before and after, for the audit row. */
function changes(before: Record<string, unknown>, patch: Record<string, unknown>) {
  const changed = Object.keys(patch).filter((key) => patch[key] !== undefined && patch[key] !== before[key]);
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(changed.map((key) => [key, patch[key] ?? null])),
  };
}

async function applyPatch(
  tx: DbExecutor,
  caller: AccountCaller,
  resource: 'city-dealers' | 'franchises',
  before: NonNullable<Awaited<ReturnType<typeof lockAccount>>>,
  patch: AccountPatch,
  writes: FirebaseWrites,
) {
  const diff = changes(before, patch);
  if (Object.keys(diff.after).length === 0) return;
  await tx
    .update(accounts)
    .set({
      ...(patch.name !== undefined ? { displayName: patch.name } : {}),
      ...(patch.state !== undefined ? { state: patch.state } : {}),
      ...(patch.disabled !== undefined ? { disabled: patch.disabled } : {}),
      ...(patch.dealerId !== undefined ? { dealerId: patch.dealerId } : {}),
    })
    .where(eq(accounts.id, before.id));
  // A disabled account's tokens stop working now, not when they expire.
  if (patch.disabled === true && !before.disabled) await revokeAccountSessions(tx, before.id);
  await recordAudit(tx, actorOf(caller), { action: 'update', resource, resourceId: before.id, ...diff });
  await queueStaffWrite(tx, writes, before.id);
}

/** Edits a city dealer; answers null when there is none. */
export async function updateCityDealer(
  db: Db,
  caller: AccountCaller,
  id: string,
  patch: Omit<AccountPatch, 'dealerId'>,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
): Promise<CityDealer | null> {
  return db.transaction(async (tx) => {
    const before = await lockAccount(tx, id, cityDealerAccountScope(accounts));
    if (!before) return null;
    if (patch.state !== undefined && patch.state !== before.state) {
      // Its franchises work in its state; moving the dealer alone would break that rule.
      const [row] = await tx
        .select({ count: sql<number>`count(*)`.mapWith(Number) })
        .from(accounts)
        .where(franchiseAccountScope({ id, role: 'city_dealer' }, accounts));
      if ((row?.count ?? 0) > 0) throw new AppError('CONFLICT', m.stateLockedByFranchises());
    }
    await applyPatch(tx, caller, 'city-dealers', before, patch, writes);
    return findCityDealer(tx, id);
  });
}

/** Edits a franchise of the caller's scope; answers null when there is none. */
export async function updateFranchise(
  db: Db,
  caller: AccountCaller,
  id: string,
  patch: AccountPatch,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
): Promise<Franchise | null> {
  return db.transaction(async (tx) => {
    const before = await lockAccount(tx, id, franchiseAccountScope(caller, accounts));
    if (!before) return null;
    if (patch.dealerId !== undefined && caller.role !== 'admin' && patch.dealerId !== before.dealerId) {
      throw new AppError('FORBIDDEN', m.forbidden());
    }
    const state = patch.state ?? before.state;
    if (caller.role === 'city_dealer' && state !== caller.state) {
      throw new AppError('VALIDATION', m.dealerOwnStateOnly({ state: stateLabel(caller.state ?? '-') }), {
        fieldErrors: { state: [m.dealerOwnStateOnly({ state: stateLabel(caller.state ?? '-') })] },
      });
    }
    if (state !== before.state) {
      // Its drivers work in its state (drivers are assigned to a franchise of their state).
      const [row] = await tx
        .select({ count: sql<number>`count(*)`.mapWith(Number) })
        .from(drivers)
        .where(and(eq(drivers.franchiseId, id), isNull(drivers.deletedAt)));
      if ((row?.count ?? 0) > 0) throw new AppError('CONFLICT', m.stateLockedByDrivers());
    }
    const dealerId = patch.dealerId !== undefined ? patch.dealerId : before.dealerId;
    if (dealerId && (dealerId !== before.dealerId || state !== before.state)) {
      const [chosen] = await tx
        .select({ state: accounts.state, disabled: accounts.disabled })
        .from(accounts)
        .where(and(eq(accounts.id, dealerId), cityDealerAccountScope(accounts)));
      // A dealer it already works under may since have been disabled; a new one must be active.
      const newlyChosen = dealerId !== before.dealerId;
      if (!chosen || chosen.state !== state || (newlyChosen && chosen.disabled)) {
        throw new AppError('VALIDATION', m.dealerOfOtherState(), {
          fieldErrors: { dealerId: [m.dealerOfOtherState()] },
        });
      }
    }
    await applyPatch(tx, caller, 'franchises', before, patch, writes);
    return findFranchise(tx, caller, id);
  });
}

/**
 * Soft-deletes a city dealer: it is disabled, its tokens end, it leaves the lists, and its
 * franchises stay, no longer working under any dealer (an admin assigns them to another).
 * Answers false when there is no such dealer.
 */
export async function deleteCityDealer(
  db: Db,
  caller: AccountCaller,
  id: string,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const before = await lockAccount(tx, id, cityDealerAccountScope(accounts));
    if (!before) return false;
    const deletedAt = new Date();
    await tx
      .update(accounts)
      .set({ deletedAt, deletedBy: caller.id, disabled: true })
      .where(eq(accounts.id, id));
    await revokeAccountSessions(tx, id);
    const released = await tx
      .update(accounts)
      .set({ dealerId: null })
      .where(and(eq(accounts.dealerId, id), eq(accounts.role, 'franchise')))
      .returning({ id: accounts.id });
    const actor = actorOf(caller);
    await recordAudit(tx, actor, {
      action: 'delete',
      resource: 'city-dealers',
      resourceId: id,
      before: { deletedAt: null, disabled: before.disabled },
      after: {
        deletedAt: deletedAt.toISOString(),
        disabled: true,
        releasedFranchises: released.map((f) => f.id),
      },
    });
    for (const franchise of released) {
      await recordAudit(tx, actor, {
        action: 'update',
        resource: 'franchises',
        resourceId: franchise.id,
        before: { dealerId: id },
        after: { dealerId: null },
      });
    }
    await queueStaffWrite(tx, writes, id);
    for (const franchise of released) await queueStaffWrite(tx, writes, franchise.id);
    return true;
  });
}
