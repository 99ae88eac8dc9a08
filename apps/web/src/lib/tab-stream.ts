import type { EventSourceMessage } from 'eventsource-parser';
import { followEventStream } from './event-stream';

/**
 * The one live stream a signed-in tab keeps for what concerns its staff member wherever they are:
 * SOS alerts (`open`, `sos`), news of their inbox (`inbox`), and the positions the tab shows (the
 * fleet map's `positions`, `gone` and `refresh`; a driver's `location`). The banner, the control
 * room, the inbox, the fleet map and the driver maps each listen to it; it opens with the first
 * listener and closes with the last, so a tab holds one stream however many of them are shown
 * (the streams per account are capped). When the positions wanted change, the stream is opened
 * again asking for them; every stream starts with `open`, after which the fleet map loads the
 * whole fleet.
 */
type Listener = (event: EventSourceMessage) => void;
export type TabStreamStatus = 'connecting' | 'live' | 'down';

export type TabStreamWants = {
  /** The fleet of the caller's scope. */
  fleet?: boolean;
  /** Some drivers' positions. */
  driverIds?: readonly string[];
  /** Hears whether the stream is up (positions are polled while it is down). */
  onStatus?: (status: TabStreamStatus) => void;
};

/** The server carries the positions of at most this many drivers on a tab's stream. */
const MAX_DRIVERS = 10;

const subscriptions = new Map<Listener, TabStreamWants>();
/** Drivers the server refused (no longer in scope): asked for no more while wanted. */
const refused = new Set<string>();
let following: { controller: AbortController; path: string } | null = null;
let status: TabStreamStatus = 'connecting';
/** Each driver's last position on the stream, for a listener that joins after it came. */
const lastLocation = new Map<string, EventSourceMessage>();

function remember(event: EventSourceMessage) {
  try {
    const { driverId } = JSON.parse(event.data) as { driverId?: unknown };
    if (typeof driverId === 'string') lastLocation.set(driverId, event);
  } catch {
    // Not a position: nothing to keep.
  }
}
let fresh = false;
let scheduled = false;

/** The drivers the stream asks for now (at most MAX_DRIVERS, the first wanted first). */
let included = new Set<string>();

function pathOf(): string {
  let fleet = false;
  const drivers = new Set<string>();
  for (const wants of subscriptions.values()) {
    if (wants.fleet) fleet = true;
    for (const id of wants.driverIds ?? []) if (!refused.has(id)) drivers.add(id);
  }
  included = new Set([...drivers].slice(0, MAX_DRIVERS));
  const query = new URLSearchParams();
  if (fleet) query.set('fleet', 'true');
  if (included.size > 0) query.set('drivers', [...included].sort().join(','));
  const text = query.toString();
  return text ? `/sos/stream?${text}` : '/sos/stream';
}

/**
 * A listener none of whose drivers the stream carries (refused by the server, or beyond the
 * MAX_DRIVERS asked for) is told the stream is down for it: its map polls.
 */
const statusFor = (wants: TabStreamWants, next: TabStreamStatus): TabStreamStatus =>
  wants.driverIds?.length && !wants.driverIds.some((id) => included.has(id)) ? 'down' : next;

function setStatus(next: TabStreamStatus) {
  status = next;
  for (const wants of [...subscriptions.values()]) wants.onStatus?.(statusFor(wants, next));
}

/** Drivers the server will not follow (out of the caller's scope): the stream goes on without them. */
function refuse(data: string) {
  try {
    const ids = JSON.parse(data) as unknown;
    if (!Array.isArray(ids)) return;
    for (const id of ids) if (typeof id === 'string') refused.add(id);
  } catch {
    return;
  }
  reconcile();
}

/** Opens the stream the listeners need now, once the listeners of this moment have all joined. */
function reconcile() {
  if (scheduled) return;
  scheduled = true;
  queueMicrotask(() => {
    scheduled = false;
    if (subscriptions.size === 0) {
      following?.controller.abort();
      following = null;
      refused.clear();
      return;
    }
    const path = pathOf();
    if (following && following.path === path && !fresh) return;
    fresh = false;
    following?.controller.abort();
    const controller = new AbortController();
    following = { controller, path };
    setStatus('connecting');
    followEventStream(
      path,
      controller.signal,
      (event) => {
        if (event.event === 'location') remember(event);
        if (event.event === 'refused') refuse(event.data);
        for (const listener of [...subscriptions.keys()]) listener(event);
      },
      (next) => setStatus(next),
    );
  });
}

/**
 * A page left for another is kept a while by the browser (for Back) with its requests as they
 * were: a stream left open there holds one of the six connections a browser opens to one server,
 * and after a few pages left that way the console's next request waits for ever. The stream
 * closes as the page is left, and opens again (starting with `open`) if the page is shown again.
 */
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => {
    following?.controller.abort();
    following = null;
  });
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) reconcile();
  });
}

/**
 * Listens to the tab's stream, asking for the positions `wants` names; answers the function that
 * stops listening. A driver's position already on the stream is handed to a listener that joins
 * later; a listener of the fleet gets a stream of its own start (it loads the fleet on `open`).
 */
/** Whether the tab's stream is up now. */
export const tabStreamStatus = (): TabStreamStatus => (following ? status : 'connecting');

export function listenToTabStream(listener: Listener, wants: TabStreamWants = {}): () => void {
  subscriptions.set(listener, wants);
  if (wants.fleet) fresh = true;
  if (following && wants.onStatus) wants.onStatus(statusFor(wants, status));
  for (const id of wants.driverIds ?? []) {
    const known = lastLocation.get(id);
    if (known) queueMicrotask(() => subscriptions.has(listener) && listener(known));
  }
  reconcile();
  return () => {
    subscriptions.delete(listener);
    for (const id of wants.driverIds ?? []) {
      const stillWanted = [...subscriptions.values()].some((other) => other.driverIds?.includes(id));
      if (!stillWanted) {
        refused.delete(id);
        lastLocation.delete(id);
      }
    }
    reconcile();
  };
}

/** A driver's position as the tab's stream carries it. */
export type PushedPosition = { lat: number; long: number; at: string };

/**
 * Listens to one driver's positions on the tab's stream (the current one first); a message that is
 * not a position of that driver is skipped. Answers the function that stops listening.
 */
export function listenToDriverPositions(
  driverId: string,
  onPosition: (position: PushedPosition) => void,
  onStatus?: (status: TabStreamStatus) => void,
): () => void {
  return listenToTabStream(
    (event) => {
      if (event.event !== 'location') return;
      try {
        const {
          driverId: of,
          lat,
          long,
          at,
        } = JSON.parse(event.data) as Partial<PushedPosition> & {
          driverId?: string;
        };
        if (of === driverId && typeof lat === 'number' && typeof long === 'number' && typeof at === 'string')
          onPosition({ lat, long, at });
      } catch {
        // Not a position: skipped.
      }
    },
    { driverIds: [driverId], onStatus },
  );
}
