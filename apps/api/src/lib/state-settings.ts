import { sql } from 'drizzle-orm';
import { STATES, type State } from '@bmet/shared/constants';
import type { DbExecutor } from '../db/client';
import { rowsOf } from '../db/rows';
import type { Actor } from '../infra/audit';

/**
 * One name in the store of dated per-state settings (`state_settings`, decision 028): every save a
 * new version from the day it takes effect; the value in effect on a day is that of the latest
 * `effective_from` on or before it, and of that day the highest version. A state that saved none
 * has its default. `parse` reads a stored value back whole (a field missing from an old save takes
 * its default).
 */
export type DatedSetting<T> = {
  name: string;
  defaultOf: (state: State) => T;
  parse: (stored: unknown, state: State) => T;
};

export type InEffect<T> = Map<State, { value: T; effectiveFrom: string | null }>;

const storedValue = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);
const isState = (value: unknown): value is State => (STATES as readonly unknown[]).includes(value);

/** Every state's value in effect on `day` (India's date), its default where none was saved. */
export async function settingInEffect<T>(
  db: DbExecutor,
  setting: DatedSetting<T>,
  day: string,
): Promise<InEffect<T>> {
  const found: InEffect<T> = new Map(
    STATES.map((state) => [state, { value: setting.defaultOf(state), effectiveFrom: null }]),
  );
  const rows = rowsOf(
    await db.execute(sql`
      select distinct on (state) state, value, effective_from::text as effective_from
      from state_settings
      where name = ${setting.name} and effective_from <= ${day}::date
      order by state, effective_from desc, version desc`),
  );
  for (const row of rows) {
    if (!isState(row.state)) continue;
    found.set(row.state, {
      value: setting.parse(storedValue(row.value), row.state),
      effectiveFrom: String(row.effective_from),
    });
  }
  return found;
}

/** The values saved to take effect after `day`, per state, by day (the last save of each day). */
export async function settingScheduled<T>(
  db: DbExecutor,
  setting: DatedSetting<T>,
  day: string,
): Promise<Map<State, { effectiveFrom: string; value: T }[]>> {
  const rows = rowsOf(
    await db.execute(sql`
      select distinct on (state, effective_from) state, value, effective_from::text as effective_from
      from state_settings
      where name = ${setting.name} and effective_from > ${day}::date
      order by state, effective_from, version desc`),
  );
  const found = new Map<State, { effectiveFrom: string; value: T }[]>();
  for (const row of rows) {
    if (!isState(row.state)) continue;
    const list = found.get(row.state) ?? [];
    list.push({
      effectiveFrom: String(row.effective_from),
      value: setting.parse(storedValue(row.value), row.state),
    });
    found.set(row.state, list);
  }
  return found;
}

/**
 * Holds a state's dated settings alone for the rest of the caller's transaction: taken before
 * reading what a save replaces, so that the audit's "before" is what the save replaced.
 */
export async function lockStateSettings(tx: DbExecutor, state: State): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`state_settings/${state}`}))`);
}

/**
 * Saves a state's value from a day on, as the next version; in the caller's transaction, which it
 * holds alone for the state while it counts the version.
 */
export async function saveStateSetting(
  tx: DbExecutor,
  actor: Actor,
  state: State,
  name: string,
  value: unknown,
  effectiveFrom: string,
): Promise<void> {
  await lockStateSettings(tx, state);
  await tx.execute(sql`
    insert into state_settings (state, name, value, effective_from, version, changed_by, request_id)
    select ${state}, ${name}, ${JSON.stringify(value)}::jsonb, ${effectiveFrom}::date,
      coalesce(max(version), 0) + 1, ${actor.id}, ${actor.requestId ?? null}
    from state_settings where state = ${state} and name = ${name}`);
}
