import { ActionIcon, Button, Group, Text } from '@mantine/core';
import { IconBell, IconBellOff } from '@tabler/icons-react';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import { sosPersonLabel } from '@bmet/shared/sos-labels';
import { PhoneLinks } from '../../components/phone-links';
import { listenToTabStream } from '../../lib/tab-stream';
import { beep, readMuted, rememberMuted, unlockAudioOnGesture } from './alarm';
import { takeSosStep } from './api';
import {
  alertClockText,
  BANNER_SHOWN,
  bannerReducer,
  bannerShown,
  EMPTY_BANNER,
  withoutAlert,
  type BannerState,
  type SosStreamEvent,
} from './sos-logic';
import classes from './sos-banner.module.css';

/** The alarm repeats this often while an alert waits; faster for one raised again. */
const REPEAT_MS = 5_000;
const URGENT_REPEAT_MS = 2_500;

type Action = SosStreamEvent | { type: 'acknowledged'; id: string };

function reduce(state: BannerState, action: Action): BannerState {
  return action.type === 'acknowledged' ? withoutAlert(state, action.id) : bannerReducer(state, action);
}

/** Follows the tab's stream: the open alerts on connecting, then each one raised or changed. */
function useSosFeed(): BannerState {
  const [state, dispatch] = useReducer(reduce, EMPTY_BANNER);
  useEffect(
    () =>
      listenToTabStream((event) => {
        try {
          if (event.event === 'open')
            dispatch({ type: 'open', alerts: JSON.parse(event.data) as SosAlert[] });
          else if (event.event === 'sos') {
            const { kind, alert } = JSON.parse(event.data) as {
              kind: 'raised' | 'changed' | 'reraised';
              alert: SosAlert;
            };
            dispatch({ type: 'sos', kind, alert });
          }
        } catch {
          // A malformed event is skipped; the next opening list sets things right.
        }
      }),
    [],
  );
  return state;
}

/** Beeps when an alert arrives, then again every few seconds while any waits, unless muted. */
function useAlarm(state: BannerState, muted: boolean) {
  const urgent = state.reraised.length > 0;
  const waiting = state.alerts.length > 0;
  const heard = useRef(new Set<string>());
  useEffect(() => unlockAudioOnGesture(), []);
  // A new alert (or one raised again) sounds at once.
  useEffect(() => {
    const keys = state.alerts.map((alert) => `${alert.id}:${state.reraised.includes(alert.id)}`);
    const fresh = keys.filter((key) => !heard.current.has(key));
    heard.current = new Set(keys);
    if (fresh.length > 0 && !muted) beep(3, urgent);
  }, [state, muted, urgent]);
  useEffect(() => {
    if (!waiting || muted) return;
    const timer = setInterval(() => beep(urgent ? 3 : 2, urgent), urgent ? URGENT_REPEAT_MS : REPEAT_MS);
    return () => clearInterval(timer);
  }, [waiting, muted, urgent]);
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

function BannerAlert({
  alert,
  reraised,
  now,
  onAcknowledged,
}: {
  alert: SosAlert;
  reraised: boolean;
  now: number;
  onAcknowledged: (id: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const acknowledge = () => {
    setBusy(true);
    setError(null);
    takeSosStep(alert.id, { action: 'acknowledge' })
      .then(() => onAcknowledged(alert.id))
      .catch((failure: Error) => setError(m.sosBannerAcknowledgeFailed({ error: failure.message })))
      .finally(() => setBusy(false));
  };
  const title = m.sosBannerHeading({ number: alert.number, person: sosPersonLabel(alert.person) });
  return (
    <div className={classes.alert} role="alert" data-reraised={reraised || undefined} aria-label={title}>
      <div>
        <Text fw={700} size="md">
          {title}
          {' · '}
          <span>{alertClockText(alert, now)}</span>
        </Text>
        {reraised && (
          <Text size="sm" fw={600}>
            {m.sosBannerReraised()}
          </Text>
        )}
        {/* Each person's phone stays beside their name, never alone at the start of a line. */}
        <div className={classes.details}>
          <span className={classes.person}>
            <span>{m.sosDriverLine({ name: alert.driverName ?? m.sosUnknownDriver() })}</span>
            {alert.driverPhone && <PhoneLinks phone={alert.driverPhone} />}
          </span>
          {alert.vehicleNumber && <span>{m.sosVehicleLine({ number: alert.vehicleNumber })}</span>}
          {(alert.customerName || alert.customerPhone) && (
            <span className={classes.person}>
              {alert.customerName && <span>{m.sosCustomerLine({ name: alert.customerName })}</span>}
              {alert.customerPhone && <PhoneLinks phone={alert.customerPhone} />}
            </span>
          )}
        </div>
        {error && (
          <Text size="sm" fw={700}>
            {error}
          </Text>
        )}
      </div>
      <Group gap="xs">
        <Button color="dark" size="sm" loading={busy} onClick={acknowledge}>
          {m.sosBannerAcknowledge()}
        </Button>
        <Button component={Link} to="/sos" variant="white" color="red" size="sm">
          {m.sosBannerOpenRoom()}
        </Button>
      </Group>
    </div>
  );
}

/**
 * The banner every signed-in staff member sees, wherever they are, for each alert in their scope
 * nobody has acknowledged yet: red, at the top, with a sound that repeats until it is.
 */
export function SosBanner() {
  const feed = useSosFeed();
  const [acknowledged, setAcknowledged] = useState<string[]>([]);
  const [muted, setMuted] = useState(readMuted);
  const alerts = feed.alerts.filter((alert) => !acknowledged.includes(alert.id));
  const shown: BannerState = { alerts, reraised: feed.reraised.filter((id) => !acknowledged.includes(id)) };
  useAlarm(shown, muted);
  const now = useNow(alerts.length > 0);
  const onAcknowledged = useCallback((id: string) => setAcknowledged((ids) => [...ids, id]), []);
  // A phone has room for one alert in full and the line that counts the others.
  const phone = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  if (alerts.length === 0) return null;
  const { shown: inFull, more } = bannerShown(shown, phone ? 1 : BANNER_SHOWN);
  const toggleMute = () => {
    rememberMuted(!muted);
    setMuted(!muted);
  };
  return (
    <section className={classes.region} aria-label={m.sosBannerRegion()}>
      <div className={classes.alerts}>
        {inFull.map((alert) => (
          <BannerAlert
            key={alert.id}
            alert={alert}
            reraised={shown.reraised.includes(alert.id)}
            now={now}
            onAcknowledged={onAcknowledged}
          />
        ))}
        {more > 0 && (
          <div className={classes.alert}>
            <Text fw={700} size="sm">
              {m.sosBannerMore({ count: more })}
            </Text>
            <Button component={Link} to="/sos" variant="white" color="red" size="sm">
              {m.sosBannerOpenRoom()}
            </Button>
          </div>
        )}
      </div>
      {/* Beside every alert, not in the first one's row: all their buttons line up. */}
      <ActionIcon
        variant="white"
        color="red"
        size="lg"
        onClick={toggleMute}
        aria-pressed={muted}
        aria-label={m.sosBannerMute()}
        title={muted ? m.sosBannerUnmute() : m.sosBannerMute()}
      >
        {muted ? <IconBellOff size={20} aria-hidden /> : <IconBell size={20} aria-hidden />}
      </ActionIcon>
    </section>
  );
}
