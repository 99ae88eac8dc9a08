/** Grievances' kinds, steps and deadline (the aggregator guidelines), without zod: the screens read them. */

import type { State } from './constants';

export const GRIEVANCE_CATEGORIES = [
  'fare',
  'behaviour',
  'safety',
  'vehicle',
  'lost_item',
  'payment',
  'app',
  'other',
] as const;
export type GrievanceCategory = (typeof GRIEVANCE_CATEGORIES)[number];

export const GRIEVANCE_PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export type GrievancePriority = (typeof GRIEVANCE_PRIORITIES)[number];

/** Who complains. */
export const COMPLAINANT_KINDS = ['customer', 'driver', 'other'] as const;
export type ComplainantKind = (typeof COMPLAINANT_KINDS)[number];

export const GRIEVANCE_STATUSES = [
  'open',
  'in_progress',
  'waiting',
  'resolved',
  'closed',
  'reopened',
] as const;
export type GrievanceStatus = (typeof GRIEVANCE_STATUSES)[number];

/** The states in which a grievance still runs against its deadline. */
export const UNRESOLVED_STATUSES = [
  'open',
  'in_progress',
  'waiting',
  'reopened',
] as const satisfies readonly GrievanceStatus[];

export const isUnresolved = (status: GrievanceStatus): boolean =>
  (UNRESOLVED_STATUSES as readonly GrievanceStatus[]).includes(status);

/**
 * The steps staff may take from each state. Resolving needs the resolution the complainant is told;
 * a resolved grievance is closed once nothing more is to be done, or reopened when the complainant
 * comes back, and then runs against a new deadline from that moment.
 */
export const GRIEVANCE_STEPS: Record<GrievanceStatus, readonly GrievanceStatus[]> = {
  open: ['in_progress', 'waiting', 'resolved'],
  in_progress: ['waiting', 'resolved'],
  waiting: ['in_progress', 'resolved'],
  reopened: ['in_progress', 'waiting', 'resolved'],
  resolved: ['closed', 'reopened'],
  closed: ['reopened'],
};

export const canStep = (from: GrievanceStatus, to: GrievanceStatus): boolean =>
  GRIEVANCE_STEPS[from].includes(to);

/** Images (JPEG, PNG) and PDFs a complainant sent; served by `GET /api/grievances/{id}/attachments/{attachmentId}`. */
export const GRIEVANCE_ATTACHMENT_TYPES = ['image/jpeg', 'image/png', 'application/pdf'] as const;
/** At most this many files per grievance. */
export const GRIEVANCE_ATTACHMENTS_MAX = 10;

/** Working days a grievance has after the day it was received, where its state sets no other. */
export const GRIEVANCE_WORKING_DAYS = 3;

/**
 * The rules of the grievance desk and the control room a state sets for itself, each from the day
 * it takes effect: the working days a grievance has, the share of a month's rides that complaints
 * must reach, and the share of rated rides that ratings below LOW_RATING stars must exceed, for a
 * driver to need action (null: the state has no such rule), and the seconds after which an alert
 * nobody acknowledged is raised again.
 */
export type DeskRules = {
  workingDays: number;
  complaintPercent: number | null;
  lowRatingPercent: number | null;
  sosReraiseSeconds: number;
};
export const DESK_RULE_FIELDS = [
  'workingDays',
  'complaintPercent',
  'lowRatingPercent',
  'sosReraiseSeconds',
] as const satisfies readonly (keyof DeskRules)[];

/** The guidelines' rules, for every state: 3 working days, an alert raised again after a minute. */
export const DESK_RULE_DEFAULTS: DeskRules = {
  workingDays: GRIEVANCE_WORKING_DAYS,
  complaintPercent: null,
  lowRatingPercent: null,
  sosReraiseSeconds: 60,
};

/** States whose own rules add to the guidelines': Delhi's action on complaints and low ratings. */
export const DESK_RULE_STATE_DEFAULTS: Partial<Record<State, Partial<DeskRules>>> = {
  delhi: { complaintPercent: 15, lowRatingPercent: 25 },
};

/** A state's rules where it saved none (the guidelines' for a driver without a state). */
export const deskRulesDefault = (state: State | null | undefined): DeskRules => ({
  ...DESK_RULE_DEFAULTS,
  ...(state ? DESK_RULE_STATE_DEFAULTS[state] : undefined),
});

/** The bounds an admin's values must keep. */
export const DESK_RULE_LIMITS = {
  workingDays: { min: 1, max: 10 },
  complaintPercent: { min: 1, max: 100 },
  lowRatingPercent: { min: 1, max: 100 },
  sosReraiseSeconds: { min: 15, max: 600 },
} as const satisfies Record<keyof DeskRules, { min: number; max: number }>;

/** How close a deadline must be for a grievance to count as due soon. */
export const DUE_SOON_MS = 24 * 3_600_000;

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** The calendar day in India (YYYY-MM-DD) of a moment. */
export function indianDayOf(moment: Date): string {
  return new Date(moment.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The deadline of a grievance received at `receivedAt`: 23:59 IST of the third (or `workingDays`th)
 * working day after the day of receipt in India, where Sundays and the days `isHoliday` names are
 * not working days.
 */
export function grievanceDeadline(
  receivedAt: Date,
  isHoliday: (day: string) => boolean,
  workingDays = GRIEVANCE_WORKING_DAYS,
): Date {
  let day = Date.parse(`${indianDayOf(receivedAt)}T00:00:00Z`);
  let working = 0;
  // A year of holidays cannot hold off a deadline for ever: bounded, and a listing that did would be a mistake.
  for (let step = 0; step < 366 && working < workingDays; step += 1) {
    day += DAY_MS;
    const date = new Date(day);
    const name = date.toISOString().slice(0, 10);
    if (date.getUTCDay() !== 0 && !isHoliday(name)) working += 1;
  }
  return new Date(day + 23 * 3_600_000 + 59 * 60_000 - IST_OFFSET_MS);
}

/** Where a grievance stands against its deadline: for the list's clock and its filter. */
export const GRIEVANCE_CLOCKS = ['overdue', 'due_soon', 'on_time'] as const;
export type GrievanceClock = (typeof GRIEVANCE_CLOCKS)[number];

export function grievanceClock(
  status: GrievanceStatus,
  dueAt: Date,
  now = new Date(),
): GrievanceClock | null {
  if (!isUnresolved(status)) return null;
  const left = dueAt.getTime() - now.getTime();
  if (left < 0) return 'overdue';
  return left <= DUE_SOON_MS ? 'due_soon' : 'on_time';
}

export const LOW_RATING = 3;
