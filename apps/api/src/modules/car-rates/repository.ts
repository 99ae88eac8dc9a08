import { and, asc, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import { z } from 'zod';
import { CAR_TYPES, RATE_FIELDS, STATES, type CarType, type State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type {
  AllRates,
  RateChangeAction,
  RateHistoryEntry,
  RateValues,
  RateValuesInput,
  StateRates,
  UpdateRatesBody,
} from '@bmet/shared/schemas/car-rate';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, carRateHistory, carRates } from '../../db/schema';
import { FIREBASE_ACTOR, recordAudit, type Actor, type ChangeSource } from '../../infra/audit';
import { NO_FIREBASE_WRITES, queueRateWrite, type FirebaseWrites } from '../../infra/firebase-outbox';
import { decodeCursor, keysetPage } from '../../lib/paging';
import { stateLabel } from '@bmet/shared/labels';
import { checkFareBand } from '../fare-rules/repository';

type CarRateRow = typeof carRates.$inferSelect;

const isState = (value: string): value is State => (STATES as readonly string[]).includes(value);
const isCarType = (value: string): value is CarType => (CAR_TYPES as readonly string[]).includes(value);

/** The stored columns of each of the spec's rate fields. */
const COLUMN_OF = {
  per_km: 'perKm',
  basePrice: 'basePrice',
  nightCharge: 'nightCharge',
  waitingCharge: 'waitingCharge',
  rushHour: 'rushHour',
  surCharges: 'surCharges',
  extra: 'extra',
} as const satisfies Record<(typeof RATE_FIELDS)[number], keyof CarRateRow>;

function valuesOf(row: CarRateRow): RateValues {
  return Object.fromEntries(RATE_FIELDS.map((field) => [field, row[COLUMN_OF[field]]])) as RateValues;
}

function columnsOf(values: RateValuesInput) {
  return Object.fromEntries(RATE_FIELDS.map((field) => [COLUMN_OF[field], values[field]])) as {
    [F in keyof typeof COLUMN_OF as (typeof COLUMN_OF)[F]]: number;
  };
}

const sameValues = (a: RateValues, b: RateValues) => RATE_FIELDS.every((field) => a[field] === b[field]);

/** Car types in the order of CAR_TYPES, the order the screen lists them. */
const byCarType = (a: string, b: string) => CAR_TYPES.indexOf(a as CarType) - CAR_TYPES.indexOf(b as CarType);

function toStateRates(rows: CarRateRow[]): StateRates {
  const rates: StateRates = {};
  for (const row of [...rows].sort((a, b) => byCarType(a.carType, b.carType))) {
    if (isCarType(row.carType)) rates[row.carType] = { ...valuesOf(row), version: row.version };
  }
  return rates;
}

/** Every state's rates, keyed by state then car type; rows of unknown states or types are left out. */
export async function findAllRates(db: DbExecutor): Promise<AllRates> {
  const rows = await db.select().from(carRates);
  const all: AllRates = {};
  for (const state of STATES) {
    const ofState = rows.filter((row) => row.state === state);
    if (ofState.length > 0) all[state] = toStateRates(ofState);
  }
  return all;
}

export async function findStateRates(db: DbExecutor, state: State): Promise<StateRates> {
  return toStateRates(await db.select().from(carRates).where(eq(carRates.state, state)));
}

/** Locks a state's rate sets of the given car types until the transaction ends. */
export async function lockRates(
  tx: DbExecutor,
  state: State,
  types: CarType[],
): Promise<Map<string, CarRateRow>> {
  const rows = await tx
    .select()
    .from(carRates)
    .where(and(eq(carRates.state, state), inArray(carRates.carType, types)))
    // One lock order for every request (rows are locked as sorted), so two saves never deadlock.
    .orderBy(asc(carRates.carType))
    .for('update');
  return new Map(rows.map((row) => [row.carType, row]));
}

export const conflict = () => new AppError('CONFLICT', m.ratesConflict());

export type Change = {
  carType: CarType;
  action: RateChangeAction;
  version: number;
  before: RateValues | null;
  after: RateValues;
  copiedFrom?: State;
  /** Why an admin kept rates outside the state's fare band. */
  overrideReason?: string;
  /** The earlier version whose values a restore brought back. */
  restoredFrom?: number;
};

/**
 * Writes one rate set: an insert when the state has no set of this type, otherwise a
 * compare-and-set on the version (`expected`, or the locked row's own for a copy, which
 * overwrites whatever the target has and keeps it in the history). Answers the
 * change, or null when the values are already stored. Throws the conflict error when another save
 * got there first; the caller's transaction then rolls back every set of the request.
 */
export async function writeRateSet(
  tx: DbExecutor,
  actor: ChangeSource,
  write: {
    state: State;
    carType: CarType;
    values: RateValuesInput;
    /** The stored set, locked by the caller; none when the state does not have this type. */
    current: CarRateRow | undefined;
    /** The version the values were based on (updates only). */
    expected?: number;
    kind: 'save' | 'copy' | 'restore';
  },
): Promise<Change | null> {
  const { state, carType, values, current, expected, kind } = write;
  const now = new Date();
  if (!current) {
    // A version for a set that is not stored: the admin's values are based on rates now gone.
    if (expected !== undefined) throw conflict();
    // Adding a car type: whoever inserts it first wins; a simultaneous add is a conflict.
    const [created] = await tx
      .insert(carRates)
      .values({ state, carType, ...columnsOf(values), version: 1, updatedAt: now, updatedBy: actor.id })
      .onConflictDoNothing()
      .returning();
    if (!created) throw conflict();
    return {
      carType,
      action: kind === 'copy' ? 'copy' : 'create',
      version: 1,
      before: null,
      after: values,
    };
  }

  const basedOn = kind === 'copy' ? current.version : expected;
  if (basedOn !== current.version) throw conflict();
  const before = valuesOf(current);
  if (sameValues(before, values)) return null;

  // The compare-and-set itself: only the version the values were based on may be replaced.
  const [updated] = await tx
    .update(carRates)
    .set({ ...columnsOf(values), version: sql`${carRates.version} + 1`, updatedAt: now, updatedBy: actor.id })
    .where(and(eq(carRates.state, state), eq(carRates.carType, carType), eq(carRates.version, basedOn)))
    .returning({ version: carRates.version });
  if (!updated) throw conflict();
  return {
    carType,
    action: kind === 'save' ? 'update' : kind,
    version: updated.version,
    before,
    after: values,
  };
}

/** Keeps a change in the rates history and in the audit log, in the transaction that made it. */
export async function recordChange(
  tx: DbExecutor,
  actor: ChangeSource,
  state: State,
  change: Change,
): Promise<void> {
  await tx.insert(carRateHistory).values({
    state,
    carType: change.carType,
    action: change.action,
    version: change.version,
    before: change.before,
    after: change.after,
    copiedFrom: change.copiedFrom ?? null,
    changedBy: actor.id,
    requestId: actor.requestId,
    source: 'source' in actor ? actor.source : null,
  });
  await recordAudit(tx, actor, {
    action: change.action,
    resource: 'car-rates',
    resourceId: `${state}/${change.carType}`,
    before: change.before && { ...change.before, version: change.version - 1 },
    after: {
      ...change.after,
      version: change.version,
      ...(change.copiedFrom ? { copiedFrom: change.copiedFrom } : {}),
      ...(change.overrideReason ? { overrideReason: change.overrideReason } : {}),
      ...(change.restoredFrom ? { restoredFromVersion: change.restoredFrom } : {}),
    },
  });
}

/**
 * Saves the rate sets of a request in one transaction: every set is written or none is. Each set
 * of an existing type must carry the version it was based on; a stale one is a conflict (409).
 */
export async function updateStateRates(
  db: Db,
  actor: Actor,
  state: State,
  body: UpdateRatesBody,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
  overrideReason?: string,
): Promise<StateRates> {
  return db.transaction(async (tx) => {
    const types = CAR_TYPES.filter((type) => body[type]);
    const current = await lockRates(tx, state, types);
    const outside = await checkChangedSets(tx, state, body, current, overrideReason);
    for (const carType of types) {
      const { version, ...values } = body[carType]!;
      const change = await writeRateSet(tx, actor, {
        state,
        carType,
        values,
        current: current.get(carType),
        expected: version,
        kind: 'save',
      });
      if (change) {
        await recordChange(tx, actor, state, outside.has(carType) ? { ...change, overrideReason } : change);
        await queueRateWrite(tx, writes, state, carType);
      }
    }
    return findStateRates(tx, state);
  });
}

/**
 * The fare band (modules/fare-rules): sets that change and fall outside their state's band today
 * are refused, or kept with an admin's reason. Answers the car types kept outside it.
 */
export async function checkChangedSets(
  tx: DbExecutor,
  state: State,
  sets: Partial<Record<CarType, RateValuesInput>>,
  current: Map<string, CarRateRow>,
  overrideReason: string | undefined,
): Promise<Set<CarType>> {
  const changed: Partial<Record<CarType, RateValuesInput>> = {};
  for (const carType of CAR_TYPES) {
    const values = sets[carType];
    const stored = current.get(carType);
    if (values && !(stored && sameValues(valuesOf(stored), values))) changed[carType] = values;
  }
  const outside = await checkFareBand(tx, state, changed, overrideReason);
  return new Set(outside.map((found) => found.carType));
}

/**
 * Copies every rate set of one state onto another, in one transaction: the target's sets of those
 * types get the source's values and a new version; its other types stay as they are.
 */
export async function copyStateRates(
  db: Db,
  actor: Actor,
  from: State,
  to: State,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
  overrideReason?: string,
): Promise<StateRates> {
  return db.transaction(async (tx) => {
    // Read, not locked: locking the source too would let two opposite copies deadlock.
    const source = await tx.select().from(carRates).where(eq(carRates.state, from));
    const sets = source
      .filter((row) => isCarType(row.carType))
      .sort((a, b) => byCarType(a.carType, b.carType));
    if (sets.length === 0) {
      throw new AppError('VALIDATION', m.noRatesToCopy({ state: stateLabel(from) }), {
        fieldErrors: { from: [m.noRatesToCopy({ state: stateLabel(from) })] },
      });
    }
    const types = sets.map((row) => row.carType as CarType);
    const current = await lockRates(tx, to, types);
    const copied = Object.fromEntries(sets.map((row) => [row.carType, valuesOf(row) as RateValuesInput]));
    const outside = await checkChangedSets(tx, to, copied, current, overrideReason);
    for (const row of sets) {
      const carType = row.carType as CarType;
      const values = valuesOf(row);
      // A source set with an empty field is copied as it is, empty field included.
      const change = await writeRateSet(tx, actor, {
        state: to,
        carType,
        values: values as RateValuesInput,
        current: current.get(carType),
        kind: 'copy',
      });
      if (change) {
        await recordChange(tx, actor, to, {
          ...change,
          copiedFrom: from,
          ...(outside.has(carType) ? { overrideReason } : {}),
        });
        await queueRateWrite(tx, writes, to, carType);
      }
    }
    return findStateRates(tx, to);
  });
}

/**
 * A rate set as the apps' Firebase database holds it now, changed there by someone else: stored as
 * a new version attributed to Firebase. It is what the apps charge, so it is kept as it is.
 * Answers whether anything changed.
 */
export async function applyFirebaseRateSet(
  tx: DbExecutor,
  state: State,
  carType: CarType,
  values: RateValues,
): Promise<'new' | 'updated' | 'unchanged'> {
  const current = (await lockRates(tx, state, [carType])).get(carType);
  const change = await writeRateSet(tx, FIREBASE_ACTOR, {
    state,
    carType,
    values: values as RateValuesInput,
    current,
    kind: 'save',
    ...(current ? { expected: current.version } : {}),
  });
  if (!change) return 'unchanged';
  await recordChange(tx, FIREBASE_ACTOR, state, change);
  return change.action === 'create' ? 'new' : 'updated';
}

const historyCursorSchema = z.object({ id: z.number().int() });

/** A state's rate changes, newest first, with the author's display name or else email. */
export async function findRateHistory(
  db: DbExecutor,
  state: State,
  options: { limit: number; cursor?: string },
): Promise<{ rows: RateHistoryEntry[]; nextCursor: string | null }> {
  const after = options.cursor ? decodeCursor(options.cursor, historyCursorSchema) : null;
  const rows = await db
    .select({
      id: carRateHistory.id,
      state: carRateHistory.state,
      carType: carRateHistory.carType,
      action: carRateHistory.action,
      version: carRateHistory.version,
      before: carRateHistory.before,
      after: carRateHistory.after,
      copiedFrom: carRateHistory.copiedFrom,
      changedAt: carRateHistory.changedAt,
      source: carRateHistory.source,
      authorId: accounts.id,
      authorName: sql<string | null>`coalesce(nullif(${accounts.displayName}, ''), ${accounts.email})`,
    })
    .from(carRateHistory)
    .leftJoin(accounts, eq(accounts.id, carRateHistory.changedBy))
    .where(and(eq(carRateHistory.state, state), after ? lt(carRateHistory.id, after.id) : undefined))
    .orderBy(desc(carRateHistory.id))
    .limit(options.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, options.limit, (row) => ({ id: row.id }));
  return {
    rows: shown.flatMap((row) =>
      isState(row.state) && isCarType(row.carType)
        ? [
            {
              id: row.id,
              state: row.state,
              carType: row.carType,
              action: row.action as RateChangeAction,
              version: row.version,
              before: (row.before as RateValues | null) ?? null,
              after: row.after as RateValues,
              copiedFrom: row.copiedFrom && isState(row.copiedFrom) ? row.copiedFrom : null,
              changedAt: row.changedAt.toISOString(),
              changedBy: row.authorId ? { id: row.authorId, name: row.authorName ?? '' } : null,
              source: row.source === 'firebase' ? ('firebase' as const) : null,
            },
          ]
        : [],
    ),
    nextCursor,
  };
}
