import { m } from '@bmet/shared/paraglide/messages';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import { canTakeSosAction, SOS_ACTIONS, type SosAction } from '@bmet/shared/sos-rules';

/** A span of time as staff read it on a clock: '42 s', '3 min 05 s', '2 h 10 min', '1 d 4 h'. */
export function elapsedText(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86_400);
  const h = Math.floor((total % 86_400) / 3600);
  const min = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (d > 0) return m.sosElapsedDays({ d, h });
  if (h > 0) return m.sosElapsedHours({ h, m: min });
  if (min > 0) return m.sosElapsedMinutes({ m: min, s: String(s).padStart(2, '0') });
  return m.sosElapsedSeconds({ s });
}

/**
 * An alert's clock: how long since it was raised while nobody has acknowledged it; once
 * acknowledged, how long that took (it no longer ticks).
 */
export function alertClockText(
  alert: Pick<SosAlert, 'raisedAt' | 'acknowledgedAt' | 'secondsToAcknowledge'>,
  now: number,
): string {
  if (alert.acknowledgedAt) {
    const ms =
      alert.secondsToAcknowledge !== null
        ? alert.secondsToAcknowledge * 1000
        : Date.parse(alert.acknowledgedAt) - Date.parse(alert.raisedAt);
    return m.sosAcknowledgedIn({ elapsed: elapsedText(ms) });
  }
  return m.sosRaisedAgo({ elapsed: elapsedText(now - Date.parse(alert.raisedAt)) });
}

/** The steps a staff member may take on an alert now, in the order they come. */
export function allowedSteps(alert: Pick<SosAlert, 'status'>): SosAction[] {
  return SOS_ACTIONS.filter((action) => canTakeSosAction(alert.status, action));
}

/** The control room's open alerts: oldest first (the one waiting longest on top). */
export function oldestFirst<T extends Pick<SosAlert, 'raisedAt'>>(alerts: T[]): T[] {
  return [...alerts].sort((a, b) => a.raisedAt.localeCompare(b.raisedAt));
}

/** What the stream says: the open alerts on connecting, then each change. */
export type SosStreamEvent =
  | { type: 'open'; alerts: SosAlert[] }
  | { type: 'sos'; kind: 'raised' | 'changed' | 'reraised'; alert: SosAlert };

/** The alerts the banner holds: those in scope not yet acknowledged, and which were raised again. */
export type BannerState = { alerts: SosAlert[]; reraised: string[] };

export const EMPTY_BANNER: BannerState = { alerts: [], reraised: [] };

/**
 * The banner's list after a stream event: the opening list replaces it; a raised or raised-again
 * alert joins it (or replaces its older copy); an alert acknowledged, escalated or resolved leaves.
 */
export function bannerReducer(state: BannerState, event: SosStreamEvent): BannerState {
  if (event.type === 'open') {
    const alerts = oldestFirst(event.alerts.filter((alert) => alert.status === 'open'));
    const ids = new Set(alerts.map((alert) => alert.id));
    return {
      alerts,
      reraised: [
        ...new Set([
          ...state.reraised.filter((id) => ids.has(id)),
          ...alerts.filter((alert) => alert.reraisedAt).map((alert) => alert.id),
        ]),
      ],
    };
  }
  const { alert, kind } = event;
  const others = state.alerts.filter((held) => held.id !== alert.id);
  if (alert.status !== 'open') {
    return { alerts: others, reraised: state.reraised.filter((id) => id !== alert.id) };
  }
  const reraised =
    kind === 'reraised' || alert.reraisedAt ? [...new Set([...state.reraised, alert.id])] : state.reraised;
  return { alerts: oldestFirst([...others, alert]), reraised };
}

/**
 * How many alerts the banner shows in full. Each takes a few lines (two to four on a phone), and
 * the banner stays in sight while the screen scrolls: six of them covered a laptop's screen to its
 * middle and a phone's whole, their last buttons out of reach. The rest wait in the control room.
 */
export const BANNER_SHOWN = 3;

/**
 * The alerts the banner shows in full and how many more wait: those raised again first (nobody
 * answered them in time), then the others oldest first, as the list holds them.
 */
export function bannerShown(state: BannerState, limit = BANNER_SHOWN) {
  const urgent = state.alerts.filter((alert) => state.reraised.includes(alert.id));
  const others = state.alerts.filter((alert) => !state.reraised.includes(alert.id));
  const ordered = [...urgent, ...others];
  return { shown: ordered.slice(0, limit), more: Math.max(0, ordered.length - limit) };
}

/** An alert acknowledged here leaves the banner at once (the stream confirms it later). */
export function withoutAlert(state: BannerState, id: string): BannerState {
  return {
    alerts: state.alerts.filter((alert) => alert.id !== id),
    reraised: state.reraised.filter((held) => held !== id),
  };
}
