import { m } from '@bmet/shared/paraglide/messages';
import { grievanceClockLabel, grievanceStatusLabel } from '@bmet/shared/grievance-labels';
import type { GrievanceClock, GrievancePriority, GrievanceStatus } from '@bmet/shared/grievance-rules';
import { grievancePriorityLabel } from '@bmet/shared/grievance-labels';
import { Tag, type TagColor } from '../../components/row-parts';

/** A trip's short id, as the trips list shows it: the last 6 characters. */
export const shortTripId = (id: string) => id.slice(-6);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * How far a deadline is, in the unit a person reads at a glance: "45 min left", "2 h left",
 * "3 d left", or "overdue by 5 h". Rounded down, so that a deadline never looks further away than
 * it is (and "overdue" is said from the first minute past it).
 */
export function grievanceTimeText(dueAt: string | Date, now: Date = new Date()): string {
  const due = typeof dueAt === 'string' ? Date.parse(dueAt) : dueAt.getTime();
  const left = due - now.getTime();
  const span = Math.abs(left);
  if (left >= 0) {
    if (span < HOUR) return m.grievanceLeftMinutes({ minutes: Math.floor(span / MINUTE) });
    if (span < 2 * DAY) return m.grievanceLeftHours({ hours: Math.floor(span / HOUR) });
    return m.grievanceLeftDays({ days: Math.floor(span / DAY) });
  }
  if (span < HOUR) return m.grievanceOverdueMinutes({ minutes: Math.max(1, Math.ceil(span / MINUTE)) });
  if (span < 2 * DAY) return m.grievanceOverdueHours({ hours: Math.floor(span / HOUR) });
  return m.grievanceOverdueDays({ days: Math.floor(span / DAY) });
}

const STATUS_COLORS: Record<GrievanceStatus, TagColor> = {
  open: 'blue',
  in_progress: 'cyan',
  waiting: 'yellow',
  resolved: 'green',
  closed: 'gray',
  reopened: 'grape',
};

export function GrievanceStatusBadge({ status }: { status: GrievanceStatus }) {
  return (
    <Tag color={STATUS_COLORS[status]} plainCase>
      {grievanceStatusLabel(status)}
    </Tag>
  );
}

const PRIORITY_COLORS: Record<GrievancePriority, TagColor> = {
  low: 'gray',
  normal: 'blue',
  high: 'orange',
  urgent: 'red',
};

export function GrievancePriorityBadge({ priority }: { priority: GrievancePriority }) {
  return (
    <Tag color={PRIORITY_COLORS[priority]} variant="outline" plainCase>
      {grievancePriorityLabel(priority)}
    </Tag>
  );
}

const CLOCK_COLORS: Record<GrievanceClock, TagColor> = {
  overdue: 'red',
  due_soon: 'orange',
  on_time: 'teal',
};

/**
 * Where an unresolved grievance stands against its deadline: "Overdue" in red, "Due within a day"
 * in orange (on time is told by the time left alone), with how long is left or how late it is.
 * Nothing once resolved or closed.
 */
export function GrievanceClockBadge({
  clock,
  dueAt,
  now,
}: {
  clock: GrievanceClock | null;
  dueAt: string;
  now?: Date;
}) {
  if (!clock) return null;
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 6 }}>
      {clock !== 'on_time' && (
        <Tag color={CLOCK_COLORS[clock]} variant={clock === 'overdue' ? 'filled' : 'light'} plainCase>
          {grievanceClockLabel(clock)}
        </Tag>
      )}
      <span style={{ fontSize: 'var(--mantine-font-size-xs)', whiteSpace: 'nowrap' }}>
        {grievanceTimeText(dueAt, now)}
      </span>
    </span>
  );
}

/** Whether a resolved grievance was resolved by its deadline; nothing before it is resolved. */
export function GrievanceResolvedTag({ inTime }: { inTime: boolean | null }) {
  if (inTime === null) return null;
  return (
    <Tag color={inTime ? 'green' : 'red'} plainCase>
      {inTime ? m.grievanceResolvedInTime() : m.grievanceResolvedLate()}
    </Tag>
  );
}
