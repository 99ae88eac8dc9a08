import { z } from 'zod';
import { STATES } from '../constants';
import { DESK_RULE_LIMITS } from '../grievance-rules';
import { m } from '../paraglide/messages.js';
import { stateSchema } from './car-rate';
import { calendarDaySchema, envelope } from './common';

const whole = (limits: { min: number; max: number }) => z.number().int().min(limits.min).max(limits.max);
const share = (limits: { min: number; max: number }) => z.number().min(limits.min).max(limits.max);

/** A state's grievance and SOS rules as an admin sends them; a share left null is no rule. */
export const deskRulesSchema = z.strictObject({
  workingDays: whole(DESK_RULE_LIMITS.workingDays),
  complaintPercent: share(DESK_RULE_LIMITS.complaintPercent).nullable(),
  lowRatingPercent: share(DESK_RULE_LIMITS.lowRatingPercent).nullable(),
  sosReraiseSeconds: whole(DESK_RULE_LIMITS.sosReraiseSeconds),
});

/** `PUT /api/desk-rules/{state}`: every rule, from a day on. */
export const putDeskRulesBodySchema = z.strictObject({
  effectiveFrom: calendarDaySchema(() => m.fareRulesDateInvalid()),
  rules: deskRulesSchema,
});
export type PutDeskRulesBody = z.infer<typeof putDeskRulesBodySchema>;

export const deskRulesParamsSchema = z.object({ state: stateSchema });

/** A state's rules in effect today (`effectiveFrom` null: its defaults) and those saved for later days. */
export const stateDeskRulesSchema = z.object({
  state: z.enum(STATES),
  rules: deskRulesSchema,
  effectiveFrom: z.string().nullable(),
  scheduled: z.array(z.object({ effectiveFrom: z.string(), rules: deskRulesSchema })),
});
export type StateDeskRules = z.infer<typeof stateDeskRulesSchema>;

export const deskRulesResponseSchema = envelope(z.array(stateDeskRulesSchema));
export const stateDeskRulesResponseSchema = envelope(stateDeskRulesSchema);
