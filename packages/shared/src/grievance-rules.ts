/** Grievances' kinds, steps and deadline (the aggregator guidelines), without zod: the screens read them. */

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

/** Working days a grievance has after the day it was received. */
export const GRIEVANCE_WORKING_DAYS = 3;

/** How close a deadline must be for a grievance to count as due soon. */
export const DUE_SOON_MS = 24 * 3_600_000;

const IST_OFFSET_MS = 330 * 60_000;
const DAY_MS = 86_400_000;

/** The calendar day in India (YYYY-MM-DD) of a moment. */
export function indianDayOf(moment: Date): string {
  return new Date(moment.getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/**
 * The deadline of a grievance received at `receivedAt`: 23:59 IST of the third working day after
 * the day of receipt in India, where Sundays and the days `isHoliday` names are not working days.
 */
export function grievanceDeadline(receivedAt: Date, isHoliday: (day: string) => boolean): Date {
  let day = Date.parse(`${indianDayOf(receivedAt)}T00:00:00Z`);
  let working = 0;
  // A year of holidays cannot hold off a deadline for ever: bounded, and a listing that did would be a mistake.
  for (let step = 0; step < 366 && working < GRIEVANCE_WORKING_DAYS; step += 1) {
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

/** A driver's complaints in a month reaching this share of its rides calls for action (Delhi's rule). */
export const COMPLAINT_SHARE = 0.15;
/** A driver's ratings below LOW_RATING stars exceeding this share of its rated rides calls for action. */
export const LOW_RATING_SHARE = 0.25;
export const LOW_RATING = 3;
