import { describe, expect, it } from 'vitest';
import { reportLocationBodySchema } from './driver';

describe('reportLocationBodySchema', () => {
  it('accepts a position with a real time and refuses year 0, which PostgreSQL cannot store', () => {
    expect(
      reportLocationBodySchema.safeParse({ lat: 18.5, long: 73.8, recordedAt: '2026-11-20T10:00:00Z' })
        .success,
    ).toBe(true);
    expect(
      reportLocationBodySchema.safeParse({ lat: 18.5, long: 73.8, recordedAt: '0000-01-01T00:00:00Z' })
        .success,
    ).toBe(false);
  });

  it('refuses positions out of range', () => {
    expect(reportLocationBodySchema.safeParse({ lat: 91, long: 0 }).success).toBe(false);
    expect(reportLocationBodySchema.safeParse({ lat: 0, long: -181 }).success).toBe(false);
  });
});
