import { sql } from 'drizzle-orm';
import { CAR_TYPES, STATES, type CarType, type State } from '@bmet/shared/constants';
import { AppError } from '@bmet/shared/errors';
import { stateLabel, carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { RateValuesInput } from '@bmet/shared/schemas/car-rate';
import {
  FARE_RULE_FIELDS,
  type FareRule,
  type FareRuleInput,
  type PutFareRulesBody,
  type StateFareRules,
} from '@bmet/shared/schemas/fare-rule';
import type { Db, DbExecutor } from '../../db/client';
import { rowsOf } from '../../db/rows';
import { recordAudit, type Actor } from '../../infra/audit';
import { istDate } from '../../lib/csv';
import { lockStateSettings, saveStateSetting } from '../../lib/state-settings';

/**
 * The states' fare rules, kept in the store of dated per-state settings (`state_settings`, named
 * `fare-rules/{car type}`). What no state has notified is the guidelines' default
 * (docs/decisions/028-fare-rules-from-the-aggregator-guidelines.md).
 */

export type FareRuleValues = Omit<FareRule, 'effectiveFrom'>;

/** The Motor Vehicle Aggregator Guidelines 2025: the band 0.5x-2x of the notified fare, and the rest. */
export const FARE_RULE_DEFAULTS: FareRuleValues = {
  notifiedBaseFare: null,
  notifiedPerKm: null,
  maxMultiple: 2,
  minMultiple: 0.5,
  cancellationPercent: 10,
  cancellationCap: 100,
  driverShareOwnVehicle: 80,
  driverShareCompanyVehicle: 60,
};

/** States whose own rules differ from the guidelines' band (Maharashtra 2025; Karnataka's fixed fares). */
export const STATE_DEFAULTS: Partial<Record<State, Partial<FareRuleValues>>> = {
  maharashtra: { maxMultiple: 1.5, minMultiple: 0.75 },
  karnataka: { maxMultiple: 1, minMultiple: 1 },
};

const PREFIX = 'fare-rules/';
const nameOf = (carType: CarType) => `${PREFIX}${carType}`;

function defaultRule(state: State): FareRule {
  return { ...FARE_RULE_DEFAULTS, ...STATE_DEFAULTS[state], effectiveFrom: null };
}

function ruleOf(value: unknown, effectiveFrom: string): FareRule {
  const stored = (value ?? {}) as Partial<Record<(typeof FARE_RULE_FIELDS)[number], unknown>>;
  const rule = { ...FARE_RULE_DEFAULTS, effectiveFrom } as FareRule;
  for (const field of FARE_RULE_FIELDS) {
    const number = stored[field];
    if (typeof number === 'number' && Number.isFinite(number))
      (rule as Record<string, unknown>)[field] = number;
  }
  return rule;
}

const isState = (value: unknown): value is State => (STATES as readonly unknown[]).includes(value);
const isCarType = (value: string): value is CarType => (CAR_TYPES as readonly string[]).includes(value);

/** India's date today: rules take effect at the start of a day in India. */
export const indiaToday = (): string => istDate();

type Stored = { state: State; carType: CarType; rule: FareRule };

/** The rules saved and in effect on `day`, per state and car type (defaults not included). */
async function savedInEffect(db: DbExecutor, day: string, state?: State): Promise<Stored[]> {
  const rows = rowsOf(
    await db.execute(sql`
      select distinct on (state, name) state, name, value, effective_from::text as effective_from
      from state_settings
      where name like ${`${PREFIX}%`} and effective_from <= ${day}::date
        ${state ? sql`and state = ${state}` : sql``}
      order by state, name, effective_from desc, version desc`),
  );
  return rows.flatMap((row) => {
    const carType = String(row.name).slice(PREFIX.length);
    if (!isState(row.state) || !isCarType(carType)) return [];
    return [{ state: row.state, carType, rule: ruleOf(row.value, String(row.effective_from)) }];
  });
}

/** Every state's rules in effect on `day`, per car type, defaults where none were saved. */
export async function findRulesInEffect(
  db: DbExecutor,
  day = indiaToday(),
  state?: State,
): Promise<Map<State, Record<CarType, FareRule>>> {
  const rules = new Map<State, Record<CarType, FareRule>>();
  for (const each of state ? [state] : STATES) {
    rules.set(each, Object.fromEntries(CAR_TYPES.map((type) => [type, defaultRule(each)])) as never);
  }
  for (const saved of await savedInEffect(db, day, state))
    rules.get(saved.state)![saved.carType] = saved.rule;
  return rules;
}

/** Rules saved to take effect after `day`: the last save of each day and car type. */
async function findScheduled(db: DbExecutor, day: string, state?: State) {
  const rows = rowsOf(
    await db.execute(sql`
      select distinct on (state, name, effective_from) state, name, value, effective_from::text as effective_from
      from state_settings
      where name like ${`${PREFIX}%`} and effective_from > ${day}::date
        ${state ? sql`and state = ${state}` : sql``}
      order by state, name, effective_from, version desc`),
  );
  const scheduled = new Map<State, Map<string, StateFareRules['scheduled'][number]>>();
  for (const row of rows) {
    const carType = String(row.name).slice(PREFIX.length);
    if (!isState(row.state) || !isCarType(carType)) continue;
    const from = String(row.effective_from);
    let days = scheduled.get(row.state);
    if (!days) scheduled.set(row.state, (days = new Map()));
    let entry = days.get(from);
    if (!entry) days.set(from, (entry = { effectiveFrom: from, rules: {} }));
    entry.rules[carType] = ruleOf(row.value, from);
  }
  return scheduled;
}

/** `GET /api/fare-rules`: every state, its rules today and those saved for later days. */
export async function findFareRules(db: Db, state?: State): Promise<StateFareRules[]> {
  const day = indiaToday();
  const [inEffect, scheduled] = await Promise.all([
    findRulesInEffect(db, day, state),
    findScheduled(db, day, state),
  ]);
  return [...inEffect].map(([each, rules]) => ({
    state: each,
    rules,
    scheduled: [...(scheduled.get(each)?.values() ?? [])],
  }));
}

/**
 * `PUT /api/fare-rules/{state}`: the rules of the car types sent, from a day on; each a new
 * version, audited with the rules in effect that day before it.
 */
export async function saveFareRules(
  db: Db,
  actor: Actor,
  state: State,
  body: PutFareRulesBody,
): Promise<StateFareRules> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    // One save of a state's rules at a time: versions are counted per state and car type.
    await lockStateSettings(tx, state);
    const before = (await findRulesInEffect(tx, body.effectiveFrom, state)).get(state)!;
    for (const carType of CAR_TYPES) {
      const rule = body.rules[carType];
      if (!rule) continue;
      await saveStateSetting(tx, actor, state, nameOf(carType), valuesOf(rule), body.effectiveFrom);
      const was = before[carType];
      await recordAudit(tx, actor, {
        action: 'update',
        resource: 'fare-rules',
        resourceId: `${state}/${carType}`,
        before: was.effectiveFrom ? { ...was } : null,
        after: { ...valuesOf(rule), effectiveFrom: body.effectiveFrom },
      });
    }
  });
  return (await findFareRules(db, state))[0]!;
}

function valuesOf(rule: FareRuleInput): FareRuleValues {
  return Object.fromEntries(FARE_RULE_FIELDS.map((field) => [field, rule[field]])) as FareRuleValues;
}

// --- The band -----------------------------------------------------------------------------------

export type BandField = 'basePrice' | 'per_km';
export type OutOfBand = {
  field: BandField;
  value: number;
  rushHour: number;
  allowedMin: number;
  allowedMax: number;
};

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The rate fields outside the band of a rule: the base price and the per-km price, each at least
 * the notified fare times the lowest multiple, and at rush hour (times the rush-hour multiplier,
 * when above 1) at most the notified fare times the highest. A rule without notified fares
 * checks nothing.
 */
export function outOfBand(
  values: Pick<RateValuesInput, 'basePrice' | 'per_km'> & { rushHour: number | null },
  rule: FareRuleValues,
): OutOfBand[] {
  const rushHour = Math.max(1, values.rushHour ?? 1);
  const found: OutOfBand[] = [];
  const check = (field: BandField, value: number | null, notified: number | null) => {
    if (notified === null || value === null) return;
    const allowedMin = round2(notified * rule.minMultiple);
    const allowedMax = round2((notified * rule.maxMultiple) / rushHour);
    if (value < allowedMin - 0.005 || value > allowedMax + 0.005) {
      found.push({ field, value, rushHour, allowedMin, allowedMax });
    }
  };
  check('basePrice', values.basePrice, rule.notifiedBaseFare);
  check('per_km', values.per_km, rule.notifiedPerKm);
  return found;
}

/** The message that names a field outside its band and the range allowed, in rupees. */
export function outOfBandMessage(state: State, carType: CarType, found: OutOfBand): string {
  const params = {
    field: found.field === 'basePrice' ? m.fareFieldBasePrice() : m.fareFieldPerKm(),
    type: carTypeLabel(carType),
    state: stateLabel(state),
    min: found.allowedMin.toFixed(2),
    max: found.allowedMax.toFixed(2),
  };
  return found.rushHour > 1
    ? m.fareOutOfBandRush({ ...params, rush: String(found.rushHour) })
    : m.fareOutOfBand(params);
}

/**
 * Refuses rate sets outside their state's band today (422 FARE_OUT_OF_BAND, each field named),
 * unless an admin gave a reason to keep them.
 */
export async function checkFareBand(
  db: DbExecutor,
  state: State,
  sets: Partial<Record<CarType, RateValuesInput>>,
  overrideReason: string | undefined,
): Promise<(OutOfBand & { carType: CarType })[]> {
  const rules = (await findRulesInEffect(db, indiaToday(), state)).get(state)!;
  const fieldErrors: Record<string, string[]> = {};
  const all: (OutOfBand & { carType: CarType })[] = [];
  for (const carType of CAR_TYPES) {
    const values = sets[carType];
    if (!values) continue;
    for (const found of outOfBand(values, rules[carType])) {
      all.push({ ...found, carType });
      fieldErrors[`${carType}.${found.field}`] = [outOfBandMessage(state, carType, found)];
    }
  }
  if (all.length > 0 && !overrideReason) {
    const [first] = Object.values(fieldErrors);
    throw new AppError('FARE_OUT_OF_BAND', first![0]!, { fieldErrors });
  }
  return all;
}
