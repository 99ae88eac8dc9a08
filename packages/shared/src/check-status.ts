import type { DriverCheck } from './schemas/driver-check';
import {
  CHECK_MEASURE,
  DRIVER_CHECK_KINDS,
  COMPLIANCE_FIGURE_DEFAULTS,
  type ComplianceFigures,
  type CheckStatus,
  type DriverCheckKind,
} from './driver-check-rules';

/**
 * What a driver's checks mean on a day (decision 028), worked out the same way wherever they are
 * read: a driver's page, the regulator's export, the driver lists' compliance.
 */

/** A check as stored: the last record of its kind. */
export type CheckRecord = {
  kind: string;
  doneOn: string;
  reference: string | null;
  result: string | null;
  hours: number | null;
  amount: number | null;
  expiresOn: string | null;
  updatedAt?: Date | string | null;
};

/** Days already moved by addMonths: a list page asks for the same few hundred days again and again. */
const movedDays = new Map<string, string>();
const MOVED_DAYS_KEPT = 10_000;

/** A day `months` after another (YYYY-MM-DD), the day of the month kept where it exists. */
function addMonths(day: string, months: number): string {
  const key = `${day}+${months}`;
  const known = movedDays.get(key);
  if (known !== undefined) return known;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1 + months, date)).toISOString().slice(0, 10);
  if (movedDays.size >= MOVED_DAYS_KEPT) movedDays.clear();
  movedDays.set(key, moved);
  return moved;
}

let lastQuarter = { day: '', start: '' };

/** The first day of the calendar quarter of a day. */
export function quarterStart(day: string): string {
  // Every driver of a list asks for today's.
  if (day === lastQuarter.day) return lastQuarter.start;
  const [year, month] = day.split('-').map(Number) as [number, number];
  const start = `${year}-${String(Math.floor((month - 1) / 3) * 3 + 1).padStart(2, '0')}-01`;
  lastQuarter = { day, start };
  return start;
}

function statusOf(
  kind: DriverCheckKind,
  row: CheckRecord | undefined,
  today: string,
  context: Context,
): DriverCheck {
  const base: DriverCheck = {
    kind,
    status: 'missing',
    doneOn: row?.doneOn ?? null,
    reference: row?.reference ?? null,
    result: (row?.result as DriverCheck['result']) ?? null,
    hours: row?.hours ?? null,
    amount: row?.amount ?? null,
    expiresOn: row?.expiresOn ?? null,
    updatedAt: row?.updatedAt ? new Date(row.updatedAt).toISOString() : null,
  };
  const status = (value: CheckStatus, expiresOn = base.expiresOn): DriverCheck => ({
    ...base,
    status: value,
    expiresOn,
  });
  switch (kind) {
    case 'refresher_training': {
      // Due a year after the last training (the refresher, or else the induction).
      const last = row?.doneOn ?? context.inductionOn;
      if (!last) return status('due', null);
      const until = addMonths(last, context.figures.refresherMonths);
      if (until < today) return status('due', until);
      return status(row ? 'valid' : 'not_due', until);
    }
    case 'remedial_training': {
      const doneThisQuarter = row && row.doneOn >= quarterStart(today);
      if (doneThisQuarter) return status('valid');
      return status(context.lowestRated ? 'due' : 'not_due');
    }
  }
  if (!row) return base;
  if (row.result === 'failed') return status('failed');
  if (row.expiresOn && row.expiresOn < today) return status('expired');
  if (kind === 'induction_training' && (row.hours ?? 0) < context.figures.inductionHours) {
    return status('insufficient');
  }
  const cover = kind === 'health_insurance' ? context.figures.healthCover : context.figures.termCover;
  if (CHECK_MEASURE[kind] === 'amount' && (row.amount ?? 0) < cover) return status('insufficient');
  return status('valid');
}

type Context = { inductionOn: string | null; lowestRated: boolean; figures: ComplianceFigures };

/** Every kind of check of a driver, in the guidelines' order, with what it means on `today`. */
export function checkStatuses(
  rows: readonly CheckRecord[],
  options: { lowestRated: boolean; today: string; figures?: ComplianceFigures },
): DriverCheck[] {
  const byKind = new Map(rows.map((row) => [row.kind, row]));
  const context: Context = {
    inductionOn: byKind.get('induction_training')?.doneOn ?? null,
    lowestRated: options.lowestRated,
    figures: options.figures ?? COMPLIANCE_FIGURE_DEFAULTS,
  };
  return DRIVER_CHECK_KINDS.map((kind) => statusOf(kind, byKind.get(kind), options.today, context));
}

/** What keeps a driver from being compliant in a check, by its status; remedial training never does (it is due within the quarter). */
export const CHECK_PROBLEMS = ['missing', 'failed', 'expired', 'insufficient', 'overdue'] as const;
export type CheckProblem = (typeof CHECK_PROBLEMS)[number];

export function checkProblemOf(check: DriverCheck): CheckProblem | null {
  if (check.kind === 'remedial_training') return null;
  switch (check.status) {
    case 'missing':
    case 'failed':
    case 'expired':
    case 'insufficient':
      return check.status;
    case 'due':
      return 'overdue';
    default:
      return null;
  }
}
