import { STATES, type State } from '@bmet/shared/constants';
import {
  COMPLIANCE_FIGURE_DEFAULTS,
  COMPLIANCE_FIGURE_FIELDS,
  type ComplianceFigures,
} from '@bmet/shared/driver-check-rules';
import type {
  PutComplianceFiguresBody,
  StateComplianceFigures,
} from '@bmet/shared/schemas/compliance-figures';
import type { Db, DbExecutor } from '../../db/client';
import { recordAudit, type Actor } from '../../infra/audit';
import { indianToday } from '../../lib/ist-days';
import {
  lockStateSettings,
  saveStateSetting,
  settingInEffect,
  settingScheduled,
  type DatedSetting,
} from '../../lib/state-settings';

/**
 * The figures of each state's checks and vehicles (induction hours, refresher months, the remedial
 * share, the covers, the vehicles' age), in the store of dated per-state settings under one name
 * (decision 028): the value in effect on a day is the latest saved on or before it; a state that
 * saved none has the guidelines' defaults.
 */

const NAME = 'compliance-figures';

/** Every stored value read back whole: a field missing from an old save takes its default. */
function figuresOf(value: unknown): ComplianceFigures {
  const stored = value as Partial<ComplianceFigures> | null;
  return {
    ...(Object.fromEntries(
      COMPLIANCE_FIGURE_FIELDS.map((field) => [
        field,
        typeof stored?.[field] === 'number' ? stored[field] : COMPLIANCE_FIGURE_DEFAULTS[field],
      ]),
    ) as Omit<ComplianceFigures, 'electricPermitExempt'>),
    electricPermitExempt: stored?.electricPermitExempt === true,
  };
}

type InEffect = Map<State, { figures: ComplianceFigures; effectiveFrom: string | null }>;

const setting: DatedSetting<ComplianceFigures> = {
  name: NAME,
  defaultOf: () => COMPLIANCE_FIGURE_DEFAULTS,
  parse: figuresOf,
};

async function readInEffect(db: DbExecutor, day: string): Promise<InEffect> {
  const found = await settingInEffect(db, setting, day);
  return new Map(
    [...found].map(([state, { value, effectiveFrom }]) => [state, { figures: value, effectiveFrom }]),
  );
}

/**
 * Today's figures of every state, read at most once a second per instance (a list page asks for
 * them on every request); a save on this instance is seen at once.
 */
let kept: { day: string; at: number; figures: Promise<InEffect> } | null = null;
const KEPT_MS = 1000;

export function figuresInEffect(db: DbExecutor, day = indianToday()): Promise<InEffect> {
  const now = Date.now();
  if (kept && kept.day === day && now - kept.at < KEPT_MS) return kept.figures;
  const figures = readInEffect(db, day);
  kept = { day, at: now, figures };
  figures.catch(() => {
    if (kept?.figures === figures) kept = null;
  });
  return figures;
}

/** A state's figures today (the defaults for a driver or vehicle without a state). */
export async function figuresOfState(db: DbExecutor, state: string | null): Promise<ComplianceFigures> {
  if (!state) return COMPLIANCE_FIGURE_DEFAULTS;
  return (await figuresInEffect(db)).get(state as State)?.figures ?? COMPLIANCE_FIGURE_DEFAULTS;
}

/** Each state's figures today, as JSON for a query that judges many drivers or vehicles at once. */
export async function figuresByStateJson(db: DbExecutor): Promise<string> {
  const figures = await figuresInEffect(db);
  return JSON.stringify(Object.fromEntries([...figures].map(([state, each]) => [state, each.figures])));
}

/** `GET /api/compliance-figures`: every state's figures today, and those saved for later days. */
export async function findComplianceFigures(
  db: DbExecutor,
  state?: State,
): Promise<StateComplianceFigures[]> {
  const day = indianToday();
  const inEffect = await readInEffect(db, day);
  const later = await settingScheduled(db, setting, day);
  return (state ? [state] : STATES).map((each) => ({
    state: each,
    ...inEffect.get(each)!,
    scheduled: (later.get(each) ?? []).map(({ effectiveFrom, value }) => ({ effectiveFrom, figures: value })),
  }));
}

/** `PUT /api/compliance-figures/{state}`: a state's figures from a day on, a new version, audited. */
export async function saveComplianceFigures(
  db: Db,
  actor: Actor,
  state: State,
  body: PutComplianceFiguresBody,
): Promise<StateComplianceFigures> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    await lockStateSettings(tx, state);
    const before = (await readInEffect(tx, body.effectiveFrom)).get(state)!;
    await saveStateSetting(tx, actor, state, NAME, body.figures, body.effectiveFrom);
    await recordAudit(tx, actor, {
      action: 'update',
      resource: 'fare-rules',
      resourceId: `${state}/${NAME}`,
      before: before.effectiveFrom ? { ...before.figures, effectiveFrom: before.effectiveFrom } : null,
      after: { ...body.figures, effectiveFrom: body.effectiveFrom },
    });
  });
  kept = null;
  return (await findComplianceFigures(db, state))[0]!;
}
