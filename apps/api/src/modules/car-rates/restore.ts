import { and, desc, eq, inArray } from 'drizzle-orm';
import type { State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import {
  rateValuesInputSchema,
  type RateValues,
  type RestoreRatesBody,
  type StateRates,
} from '@bmet/shared/schemas/car-rate';
import type { Db, DbExecutor } from '../../db/client';
import { carRateHistory } from '../../db/schema';
import type { Actor } from '../../infra/audit';
import { NO_FIREBASE_WRITES, queueRateWrite, type FirebaseWrites } from '../../infra/firebase-outbox';
import {
  checkChangedSets,
  conflict,
  findStateRates,
  lockRates,
  recordChange,
  writeRateSet,
} from './repository';

/**
 * The values a rate set had at a version, from the history: the version's own change, or else the
 * values before the next change (a set seeded or imported at version 1 has no change of its own).
 */
async function findVersionValues(
  tx: DbExecutor,
  state: State,
  carType: string,
  version: number,
): Promise<RateValues | null> {
  const rows = await tx
    .select({ version: carRateHistory.version, before: carRateHistory.before, after: carRateHistory.after })
    .from(carRateHistory)
    .where(
      and(
        eq(carRateHistory.state, state),
        eq(carRateHistory.carType, carType),
        inArray(carRateHistory.version, [version, version + 1]),
      ),
    )
    .orderBy(desc(carRateHistory.id));
  const own = rows.find((row) => row.version === version);
  if (own) return own.after as RateValues;
  const next = rows.find((row) => row.version === version + 1 && row.before !== null);
  return next ? (next.before as RateValues) : null;
}

/**
 * Saves the values of an earlier version of one car type's rates as a new version, as a save
 * would: based on the current version (409 when it has changed since), checked like a save
 * (bounds, fare band), kept in the history and the audit log as a restore, and sent to the apps.
 */
export async function restoreRateSet(
  db: Db,
  actor: Actor,
  state: State,
  body: RestoreRatesBody,
  writes: FirebaseWrites = NO_FIREBASE_WRITES,
  overrideReason?: string,
): Promise<StateRates> {
  const { carType, restoreVersion, version } = body;
  return db.transaction(async (tx) => {
    const current = (await lockRates(tx, state, [carType])).get(carType);
    if (!current || current.version !== version) throw conflict();

    const names = { type: carTypeLabel(carType), state: stateLabel(state), version: restoreVersion };
    const stored = await findVersionValues(tx, state, carType, restoreVersion);
    if (!stored) throw new AppError('NOT_FOUND', m.ratesVersionNotFound(names));
    // An imported version may have blank fields, or values beyond today's bounds: a save refuses
    // them, and so does a restore.
    const values = rateValuesInputSchema.safeParse(stored);
    if (!values.success) {
      const message = m.ratesRestoreIncomplete(names);
      throw new AppError('VALIDATION', message, { fieldErrors: { restoreVersion: [message] } });
    }

    const outside = await checkChangedSets(
      tx,
      state,
      { [carType]: values.data },
      new Map([[carType, current]]),
      overrideReason,
    );
    const change = await writeRateSet(tx, actor, {
      state,
      carType,
      values: values.data,
      current,
      expected: version,
      kind: 'restore',
    });
    if (change) {
      await recordChange(tx, actor, state, {
        ...change,
        restoredFrom: restoreVersion,
        ...(outside.has(carType) ? { overrideReason } : {}),
      });
      await queueRateWrite(tx, writes, state, carType);
    }
    return findStateRates(tx, state);
  });
}
