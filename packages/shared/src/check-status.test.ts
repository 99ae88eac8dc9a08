import { describe, expect, it } from 'vitest';
import { checkStatuses, quarterStart, type CheckRecord } from './check-status';

const record = (kind: string, doneOn: string, extra: Partial<CheckRecord> = {}): CheckRecord => ({
  kind,
  doneOn,
  reference: null,
  result: 'passed',
  hours: null,
  amount: null,
  expiresOn: null,
  ...extra,
});

const refresherOf = (rows: CheckRecord[], today: string) =>
  checkStatuses(rows, { lowestRated: false, today }).find((check) => check.kind === 'refresher_training')!;

describe('a refresher training', () => {
  it('is due a year after the last training, the same answer however often it is asked', () => {
    const rows = [record('induction_training', '2025-03-10', { hours: 40 })];
    for (let time = 0; time < 3; time++) {
      expect(refresherOf(rows, '2026-03-10')).toMatchObject({ status: 'not_due', expiresOn: '2026-03-10' });
      expect(refresherOf(rows, '2026-03-11')).toMatchObject({ status: 'due', expiresOn: '2026-03-10' });
    }
  });

  it('counts from the refresher once there is one', () => {
    const rows = [
      record('induction_training', '2024-01-05', { hours: 40 }),
      record('refresher_training', '2025-06-20', { hours: 8 }),
    ];
    expect(refresherOf(rows, '2026-06-20')).toMatchObject({ status: 'valid', expiresOn: '2026-06-20' });
    expect(refresherOf(rows, '2026-06-21')).toMatchObject({ status: 'due', expiresOn: '2026-06-20' });
  });

  it('moves a day that the later month lacks past its end, as the calendar does', () => {
    const rows = [record('induction_training', '2024-02-29', { hours: 40 })];
    expect(refresherOf(rows, '2025-01-01').expiresOn).toBe('2025-03-01');
  });

  it('is due at once without any training', () => {
    expect(refresherOf([], '2026-12-01')).toMatchObject({ status: 'due', expiresOn: null });
  });
});

describe('the start of a quarter', () => {
  it('is the first day of its first month, for any day, asked in any order', () => {
    expect(quarterStart('2026-12-01')).toBe('2026-10-01');
    expect(quarterStart('2026-12-01')).toBe('2026-10-01');
    expect(quarterStart('2026-01-31')).toBe('2026-01-01');
    expect(quarterStart('2026-06-30')).toBe('2026-04-01');
    expect(quarterStart('2026-12-01')).toBe('2026-10-01');
  });
});
