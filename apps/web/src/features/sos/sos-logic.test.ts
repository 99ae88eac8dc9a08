import { describe, expect, it } from 'vitest';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import {
  alertClockText,
  allowedSteps,
  bannerReducer,
  bannerShown,
  EMPTY_BANNER,
  elapsedText,
  withoutAlert,
} from './sos-logic';

const alert = (id: string, overrides: Partial<SosAlert> = {}): SosAlert => ({
  id,
  number: `SOS-${id}`,
  status: 'open',
  source: 'driver_app',
  person: 'driver',
  driverId: null,
  driverName: 'Ravi',
  driverPhone: '9876543210',
  vehicleNumber: 'MH12AB1234',
  franchiseName: 'Pune Cabs',
  tripId: null,
  customerName: null,
  customerPhone: null,
  lat: 18.5,
  long: 73.8,
  positionAt: null,
  note: null,
  raisedAt: '2026-11-29T10:00:00.000Z',
  raisedByName: null,
  acknowledgedAt: null,
  acknowledgedByName: null,
  secondsToAcknowledge: null,
  reraisedAt: null,
  escalations: [],
  resolvedAt: null,
  resolvedByName: null,
  outcome: null,
  outcomeNote: null,
  ...overrides,
});

describe('the clock', () => {
  it('reads seconds, minutes, hours and days as staff say them', () => {
    expect(elapsedText(42_400)).toBe('42 s');
    expect(elapsedText(185_000)).toBe('3 min 05 s');
    expect(elapsedText(2 * 3600_000 + 10 * 60_000)).toBe('2 h 10 min');
    expect(elapsedText(28 * 3600_000)).toBe('1 d 4 h');
    expect(elapsedText(-5)).toBe('0 s');
  });

  it('counts from the alert until it is acknowledged, then shows how long that took', () => {
    const now = Date.parse('2026-11-29T10:01:30.000Z');
    expect(alertClockText(alert('1'), now)).toBe('Raised 1 min 30 s ago');
    expect(
      alertClockText(
        alert('1', { acknowledgedAt: '2026-11-29T10:00:20.000Z', secondsToAcknowledge: 20 }),
        now,
      ),
    ).toBe('Acknowledged in 20 s');
  });
});

describe('the steps allowed', () => {
  it('acknowledge first, then escalate or resolve, nothing once resolved', () => {
    expect(allowedSteps({ status: 'open' })).toEqual(['acknowledge', 'resolve']);
    expect(allowedSteps({ status: 'acknowledged' })).toEqual(['escalate', 'resolve']);
    expect(allowedSteps({ status: 'escalated' })).toEqual(['escalate', 'resolve']);
    expect(allowedSteps({ status: 'resolved' })).toEqual([]);
  });
});

describe("the banner's list from the stream", () => {
  it('takes the open alerts on connecting, oldest first, leaving out those already acknowledged', () => {
    const state = bannerReducer(EMPTY_BANNER, {
      type: 'open',
      alerts: [
        alert('b', { raisedAt: '2026-11-29T10:05:00.000Z' }),
        alert('a'),
        alert('c', { status: 'acknowledged' }),
      ],
    });
    expect(state.alerts.map((a) => a.id)).toEqual(['a', 'b']);
    expect(state.reraised).toEqual([]);
  });

  it('adds a raised alert, marks a raised-again one, and drops one acknowledged elsewhere', () => {
    let state = bannerReducer(EMPTY_BANNER, { type: 'open', alerts: [alert('a')] });
    state = bannerReducer(state, { type: 'sos', kind: 'raised', alert: alert('b') });
    expect(state.alerts.map((a) => a.id)).toEqual(['a', 'b']);
    state = bannerReducer(state, {
      type: 'sos',
      kind: 'reraised',
      alert: alert('a', { reraisedAt: '2026-11-29T10:01:00.000Z' }),
    });
    expect(state.reraised).toEqual(['a']);
    expect(state.alerts).toHaveLength(2);
    state = bannerReducer(state, {
      type: 'sos',
      kind: 'changed',
      alert: alert('a', { status: 'acknowledged' }),
    });
    expect(state.alerts.map((a) => a.id)).toEqual(['b']);
    expect(state.reraised).toEqual([]);
    state = bannerReducer(state, { type: 'sos', kind: 'changed', alert: alert('b', { status: 'resolved' }) });
    expect(state).toEqual(EMPTY_BANNER);
  });

  it('a new opening list (after a reconnect) replaces what was held', () => {
    let state = bannerReducer(EMPTY_BANNER, { type: 'open', alerts: [alert('a'), alert('b')] });
    state = bannerReducer(state, {
      type: 'open',
      alerts: [alert('b', { reraisedAt: '2026-11-29T10:01:00.000Z' })],
    });
    expect(state.alerts.map((a) => a.id)).toEqual(['b']);
    expect(state.reraised).toEqual(['b']);
    expect(withoutAlert(state, 'b')).toEqual(EMPTY_BANNER);
  });
});

describe('bannerShown', () => {
  const state = (ids: string[], reraised: string[] = []) => ({
    alerts: ids.map((id, index) => alert(id, { raisedAt: `2026-11-29T10:0${index}:00.000Z` })),
    reraised,
  });

  it('shows every alert while they fit', () => {
    const { shown, more } = bannerShown(state(['a', 'b', 'c']));
    expect(shown.map((a) => a.id)).toEqual(['a', 'b', 'c']);
    expect(more).toBe(0);
  });

  it('shows the oldest three and counts the rest', () => {
    const { shown, more } = bannerShown(state(['a', 'b', 'c', 'd', 'e', 'f']));
    expect(shown.map((a) => a.id)).toEqual(['a', 'b', 'c']);
    expect(more).toBe(3);
  });

  it('puts the alerts raised again first, even the newest', () => {
    const { shown, more } = bannerShown(state(['a', 'b', 'c', 'd', 'e'], ['e']));
    expect(shown.map((a) => a.id)).toEqual(['e', 'a', 'b']);
    expect(more).toBe(2);
  });
});
