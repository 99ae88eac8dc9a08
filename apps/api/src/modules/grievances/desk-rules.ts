import { DESK_RULE_FIELDS, deskRulesDefault, type DeskRules } from '@bmet/shared/grievance-rules';
import { STATES, type State } from '@bmet/shared/constants';
import type { StateDeskRules } from '@bmet/shared/schemas/desk-rules';
import type { DbExecutor } from '../../db/client';
import { indianToday } from '../../lib/ist-days';
import {
  settingInEffect,
  settingScheduled,
  type DatedSetting,
  type InEffect,
} from '../../lib/state-settings';

/**
 * Each state's rules of the grievance desk and the control room (the working days of a deadline,
 * Delhi's shares that call for action on a driver, the seconds before an alert is raised again),
 * in the store of dated per-state settings under one name: a state that saved none keeps its
 * defaults (decision 036).
 */

const NAME = 'desk-rules';

/** A stored value read back whole: a field missing or unreadable takes the state's default. */
function rulesOf(stored: unknown, state: State): DeskRules {
  const value = (stored ?? {}) as Partial<Record<keyof DeskRules, unknown>>;
  const rules = deskRulesDefault(state);
  for (const field of DESK_RULE_FIELDS) {
    const number = value[field];
    if (typeof number === 'number' && Number.isFinite(number)) rules[field] = number;
    else if (number === null && (field === 'complaintPercent' || field === 'lowRatingPercent'))
      rules[field] = null;
  }
  return rules;
}

export const deskRulesSetting: DatedSetting<DeskRules> = {
  name: NAME,
  defaultOf: deskRulesDefault,
  parse: rulesOf,
};

/** Every state's rules in effect on a day in India. */
export function deskRulesInEffect(db: DbExecutor, day = indianToday()): Promise<InEffect<DeskRules>> {
  return settingInEffect(db, deskRulesSetting, day);
}

const isState = (value: unknown): value is State => (STATES as readonly unknown[]).includes(value);

/** The rules of a state (the guidelines' for none or an unknown one) in effect on a day. */
export async function deskRulesOf(db: DbExecutor, state: string | null, day: string): Promise<DeskRules> {
  if (!isState(state)) return deskRulesDefault(null);
  return (await deskRulesInEffect(db, day)).get(state)!.value;
}

/** The rules of a state (or the guidelines') from a map of them. */
export const rulesIn = (rules: InEffect<DeskRules>, state: string | null): DeskRules =>
  (isState(state) ? rules.get(state)?.value : undefined) ?? deskRulesDefault(null);

/** `GET /api/desk-rules`: every state's rules today, and those saved for later days. */
export async function findDeskRules(db: DbExecutor, state?: State): Promise<StateDeskRules[]> {
  const day = indianToday();
  const [inEffect, later] = await Promise.all([
    settingInEffect(db, deskRulesSetting, day),
    settingScheduled(db, deskRulesSetting, day),
  ]);
  return (state ? [state] : STATES).map((each) => {
    const now = inEffect.get(each)!;
    return {
      state: each,
      rules: now.value,
      effectiveFrom: now.effectiveFrom,
      scheduled: (later.get(each) ?? []).map(({ effectiveFrom, value }) => ({ effectiveFrom, rules: value })),
    };
  });
}
