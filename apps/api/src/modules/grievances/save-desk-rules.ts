import type { State } from '@bmet/shared/constants';
import type { PutDeskRulesBody, StateDeskRules } from '@bmet/shared/schemas/desk-rules';
import type { Db, DbExecutor } from '../../db/client';
import { recordAudit, type Actor } from '../../infra/audit';
import { startOfIndianDay } from '../../lib/ist-days';
import { lockStateSettings, saveStateSetting, settingInEffect } from '../../lib/state-settings';
import { moveDeadlines } from './deadlines';
import { deskRulesSetting, findDeskRules } from './desk-rules';

/**
 * `PUT /api/desk-rules/{state}`: a state's rules from a day on, a new version, audited. The
 * deadlines of the state's unresolved grievances whose clock started on or after that day are
 * worked out again in the same transaction, so that no clock shows a deadline the rules no longer give.
 */
export async function saveDeskRules(
  db: Db,
  actor: Actor,
  state: State,
  body: PutDeskRulesBody,
): Promise<StateDeskRules> {
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as DbExecutor;
    await lockStateSettings(tx, state);
    const before = (await settingInEffect(tx, deskRulesSetting, body.effectiveFrom)).get(state)!;
    await saveStateSetting(tx, actor, state, deskRulesSetting.name, body.rules, body.effectiveFrom);
    const moved = await moveDeadlines(tx, { state, from: new Date(startOfIndianDay(body.effectiveFrom)) });
    await recordAudit(tx, actor, {
      action: 'update',
      resource: 'settings',
      resourceId: `${state}/${deskRulesSetting.name}`,
      before: { ...before.value, effectiveFrom: before.effectiveFrom },
      after: { ...body.rules, effectiveFrom: body.effectiveFrom, deadlinesMoved: moved },
    });
  });
  return (await findDeskRules(db, state))[0]!;
}
