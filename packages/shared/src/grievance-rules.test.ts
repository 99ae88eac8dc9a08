import { describe, expect, it } from 'vitest';
import { canStep, grievanceClock, grievanceDeadline } from './grievance-rules';

const none = () => false;
const ist = (moment: string) => new Date(`${moment}+05:30`);

describe('the deadline of a grievance: 23:59 IST of the third working day after receipt', () => {
  it('counts three days after a Monday', () => {
    // Monday 30 November 2026, 10:00 IST: Tuesday, Wednesday, Thursday.
    expect(grievanceDeadline(ist('2026-11-30T10:00:00'), none)).toEqual(ist('2026-12-03T23:59:00'));
  });

  it('skips a Sunday', () => {
    // Friday 4 December: Saturday, (Sunday), Monday, Tuesday.
    expect(grievanceDeadline(ist('2026-12-04T09:00:00'), none)).toEqual(ist('2026-12-08T23:59:00'));
  });

  it('reads the day of receipt in India, not in UTC', () => {
    // 23:30 IST on Saturday 5 December is still Saturday 18:00 UTC; 00:30 IST Sunday is Saturday in UTC.
    expect(grievanceDeadline(ist('2026-12-05T23:30:00'), none)).toEqual(ist('2026-12-09T23:59:00'));
    expect(grievanceDeadline(ist('2026-12-06T00:30:00'), none)).toEqual(ist('2026-12-09T23:59:00'));
  });

  it('skips the listed holidays, and a holiday on a Sunday costs nothing more', () => {
    const holidays = new Set(['2026-12-01', '2026-12-06']);
    expect(grievanceDeadline(ist('2026-11-30T10:00:00'), (day) => holidays.has(day))).toEqual(
      ist('2026-12-04T23:59:00'),
    );
    expect(grievanceDeadline(ist('2026-12-04T10:00:00'), (day) => holidays.has(day))).toEqual(
      ist('2026-12-08T23:59:00'),
    );
  });

  it('skips a run of holidays across a month end', () => {
    const holidays = new Set(['2026-12-31', '2027-01-01', '2027-01-02']);
    // Wednesday 30 December: (31 Dec, 1 Jan, 2 Jan, Sunday 3 Jan) then 4, 5, 6 January.
    expect(grievanceDeadline(ist('2026-12-30T12:00:00'), (day) => holidays.has(day))).toEqual(
      ist('2027-01-06T23:59:00'),
    );
  });
});

describe('the clock and the steps', () => {
  const due = ist('2026-12-03T23:59:00');
  it('says overdue, due within a day or on time while unresolved, nothing once resolved', () => {
    expect(grievanceClock('open', due, ist('2026-12-04T00:00:00'))).toBe('overdue');
    expect(grievanceClock('in_progress', due, ist('2026-12-03T09:00:00'))).toBe('due_soon');
    expect(grievanceClock('reopened', due, ist('2026-12-01T09:00:00'))).toBe('on_time');
    expect(grievanceClock('resolved', due, ist('2026-12-09T00:00:00'))).toBeNull();
    expect(grievanceClock('closed', due, ist('2026-12-09T00:00:00'))).toBeNull();
  });

  it('allows only the steps of a grievance’s life', () => {
    expect(canStep('open', 'resolved')).toBe(true);
    expect(canStep('open', 'closed')).toBe(false);
    expect(canStep('resolved', 'reopened')).toBe(true);
    expect(canStep('closed', 'in_progress')).toBe(false);
  });
});
