import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { overwriteGetLocale } from '@bmet/shared/paraglide/runtime';
import { GrievanceClockBadge, grievanceTimeText } from './grievance-parts';

const NOW = new Date('2026-11-29T06:30:00Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('grievanceTimeText', () => {
  afterEach(() => overwriteGetLocale(() => 'en'));

  it('says how long is left, in minutes under an hour, hours under two days, then days', () => {
    expect(grievanceTimeText(later(45 * MINUTE + 30_000), NOW)).toBe('45 min left');
    expect(grievanceTimeText(later(2 * HOUR + 59 * MINUTE), NOW)).toBe('2 h left');
    expect(grievanceTimeText(later(47 * HOUR), NOW)).toBe('47 h left');
    expect(grievanceTimeText(later(3 * 24 * HOUR + 5 * HOUR), NOW)).toBe('3 d left');
  });

  it('says how late it is once the deadline has passed, from the first minute', () => {
    expect(grievanceTimeText(later(-10_000), NOW)).toBe('overdue by 1 min');
    expect(grievanceTimeText(later(-5 * HOUR - 20 * MINUTE), NOW)).toBe('overdue by 5 h');
    expect(grievanceTimeText(later(-50 * HOUR), NOW)).toBe('overdue by 2 d');
  });

  it('reads an ISO moment as the API sends it', () => {
    expect(grievanceTimeText('2026-11-29T08:30:00.000Z', NOW)).toBe('2 h left');
  });

  it('speaks Hindi when the screen does', () => {
    overwriteGetLocale(() => 'hi');
    expect(grievanceTimeText(later(2 * HOUR), NOW)).toBe('2 घंटे बाकी');
    expect(grievanceTimeText(later(-5 * HOUR), NOW)).toBe('5 घंटे की देरी');
  });
});

const badge = (props: Parameters<typeof GrievanceClockBadge>[0]) =>
  render(
    <MantineProvider>
      <GrievanceClockBadge {...props} />
    </MantineProvider>,
  );

describe('GrievanceClockBadge', () => {
  it('marks an overdue grievance and says by how much', () => {
    badge({ clock: 'overdue', dueAt: later(-5 * HOUR).toISOString(), now: NOW });
    expect(screen.getByText('Overdue')).toBeInTheDocument();
    expect(screen.getByText('overdue by 5 h')).toBeInTheDocument();
  });

  it('marks one due within a day with the time left', () => {
    badge({ clock: 'due_soon', dueAt: later(2 * HOUR).toISOString(), now: NOW });
    expect(screen.getByText('Due within a day')).toBeInTheDocument();
    expect(screen.getByText('2 h left')).toBeInTheDocument();
  });

  it('gives only the time left of one on time', () => {
    badge({ clock: 'on_time', dueAt: later(50 * HOUR).toISOString(), now: NOW });
    expect(screen.queryByText('On time')).not.toBeInTheDocument();
    expect(screen.getByText('2 d left')).toBeInTheDocument();
  });

  it('shows nothing once the grievance is resolved', () => {
    badge({ clock: null, dueAt: later(-HOUR).toISOString(), now: NOW });
    expect(screen.queryByText(/overdue|left/i)).not.toBeInTheDocument();
  });
});
