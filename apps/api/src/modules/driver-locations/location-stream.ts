import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import type { AccessEvent, AccessEvents } from '../../infra/access-events';
import type { LocationBus } from '../../infra/location-bus';

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 20_000;
// setTimeout fires at once beyond this (about 24.8 days); longer waits are taken in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;
// A client that stops reading is dropped rather than buffered without end.
const MAX_BUFFERED_BYTES = 256 * 1024;
/** A person watches a few drivers at once; more streams than this from one session are refused. */
export const MAX_STREAMS_PER_SESSION = 10;
/** Streams one account may hold open on an instance, all its sessions together, unless configured. */
export const DEFAULT_STREAMS_PER_ACCOUNT = 20;

/** One Server-Sent Events message carrying a position. */
export function formatLocationEvent(event: LocationEvent): string {
  return `event: location\ndata: ${JSON.stringify(event)}\n\n`;
}

/** What a stream carries: subscribed first, then started with the function that writes to it. */
export type StreamSource = {
  /**
   * Subscribes to what the stream will carry and reads what it starts with; what arrives
   * meanwhile waits. Throwing refuses the stream before it starts (the error is answered).
   */
  attach(): Promise<{ start(write: (chunk: string) => void): void; detach(): void }>;
};

/** Who may keep a stream open, and for how long. */
export type StreamTerms = {
  /** When the caller's ID token expires (ms since the epoch). */
  expiresAt: number;
  /**
   * Asked when the database announces a change to the caller's session or account (or to the
   * stream's driver), and at every heartbeat as a backstop: false ends the stream (the session was
   * revoked, the account disabled, or the driver left the caller's scope).
   */
  stillAllowed?: () => Promise<boolean>;
  /**
   * Whose stream it is: at most MAX_STREAMS_PER_SESSION per session, and the configured number per
   * account whatever its sessions (429 beyond).
   */
  owner?: { sessionId: string; accountId: string };
  /** The one driver the stream is about, if any: changes to that driver are checked at once. */
  driverId?: string;
  /** The drivers whose positions a tab's stream carries: changes to them are checked at once. */
  driverIds?: readonly string[];
  /** How much unread output a client may leave before it is dropped (default 256 KB). */
  maxBufferedBytes?: number;
};

/**
 * One stream of several sources (a tab's alerts, its inbox and the positions it shows): each is
 * attached, and if one refuses, those attached already are let go; they start in the order given,
 * writing to the same stream, and are detached together.
 */
export function combineSources(...sources: StreamSource[]): StreamSource {
  return {
    async attach() {
      const settled = await Promise.allSettled(sources.map((source) => source.attach()));
      const attached = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
      const refused = settled.find((result) => result.status === 'rejected');
      if (refused) {
        for (const each of attached) each.detach();
        throw refused.reason;
      }
      return {
        start(write) {
          for (const each of attached) each.start(write);
        },
        detach() {
          for (const each of attached) each.detach();
        },
      };
    },
  };
}

/**
 * The positions a tab's stream carries beside its alerts and inbox, where the tab shows them: the
 * fleet of the caller's scope, and some drivers' (those outside it named in an `event: refused`).
 * Answers the sources, the drivers to watch for changes, and the check that those drivers stay in
 * scope (one leaving it ends the stream; the tab's next start names it refused).
 */
export type TabPositions = (
  request: FastifyRequest,
  wants: { fleet: boolean; driverIds: readonly string[] },
) => Promise<{
  sources: StreamSource[];
  driverIds: string[];
  stillVisible: () => Promise<boolean>;
}>;

export type LocationStreams = {
  /**
   * Takes over the reply and streams one driver's positions: the current one first, then each
   * new one from the bus, until the client goes, the caller's token expires or the server closes.
   */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    stream: StreamTerms & {
      driverId: string;
      /** Read after subscribing, so that no position published meanwhile is missed. */
      readCurrent: () => Promise<LocationEvent | null>;
    },
  ): Promise<void>;
  /**
   * Takes over the reply and streams what `source` carries, with the same terms as a driver's
   * stream (heartbeats, revocation, expiry, the cap per session): the fleet map's stream.
   */
  serve(
    request: FastifyRequest,
    reply: FastifyReply,
    source: StreamSource,
    terms: StreamTerms,
  ): Promise<void>;
  /** A driver's positions as a source of a stream: the current one first, then each new one. */
  driverSource(driverId: string, readCurrent: () => Promise<LocationEvent | null>): StreamSource;
  /** Ends every open stream (server shutdown). */
  endAll(): void;
  /** How many streams are open. */
  readonly size: number;
};

type OpenStream = {
  driverId?: string;
  driverIds?: readonly string[];
  owner?: { sessionId: string; accountId: string };
  end: () => void;
  recheck: () => void;
};

/** Whether an announced change may concern a stream (account changes move scopes: all may). */
function concerns(event: AccessEvent, stream: OpenStream): boolean {
  // A fleet stream has no driver of its own: its source follows drivers' changes itself.
  if (event.kind === 'driver')
    return event.id === stream.driverId || Boolean(stream.driverIds?.includes(event.id));
  if (event.kind === 'session') return event.id === stream.owner?.sessionId;
  return true;
}

export function createLocationStreams(
  bus: LocationBus,
  heartbeatMs = HEARTBEAT_MS,
  accessEvents?: Pick<AccessEvents, 'subscribe'>,
  limits: { perAccount?: number } = {},
): LocationStreams {
  const open = new Map<() => void, OpenStream>();
  const perSession = new Map<string, number>();
  // Sessions are cheap to open (a sign-in each): without a cap per account, one account signed in
  // thirty times held 300 streams.
  const perAccount = new Map<string, number>();
  const accountCap = limits.perAccount ?? DEFAULT_STREAMS_PER_ACCOUNT;
  // One subscription for all streams, handed on to the streams of that driver only: a position
  // costs what its own dashboards cost, not a call per open stream (2,000 streams x 2,000
  // positions a second would be four million calls a second).
  // The subscription is held while at least one stream is open.
  const watchers = new Map<string, Set<(event: LocationEvent) => void>>();
  let watching = 0;
  let unsubscribeBus: (() => void) | null = null;
  const watch = (driverId: string, listener: (event: LocationEvent) => void) => {
    unsubscribeBus ??= bus.subscribe((event) => {
      const listeners = watchers.get(event.driverId);
      if (listeners) for (const each of listeners) each(event);
    });
    let listeners = watchers.get(driverId);
    if (!listeners) watchers.set(driverId, (listeners = new Set()));
    listeners.add(listener);
    watching++;
    let watched = true;
    return () => {
      if (!watched) return;
      watched = false;
      listeners.delete(listener);
      if (listeners.size === 0) watchers.delete(driverId);
      if (--watching === 0) {
        unsubscribeBus?.();
        unsubscribeBus = null;
      }
    };
  };
  accessEvents?.subscribe((event) => {
    for (const stream of open.values()) if (concerns(event, stream)) stream.recheck();
  });

  /** A driver's positions: the current one first, then each new one from the bus, never older. */
  const driverSource = (
    driverId: string,
    readCurrent: () => Promise<LocationEvent | null>,
  ): StreamSource => ({
    async attach() {
      // Positions that arrive before the stream is ready wait here, in order.
      let pending: LocationEvent[] | null = [];
      let send: (event: LocationEvent) => void = () => {};
      const detach = watch(driverId, (event) => {
        if (pending) pending.push(event);
        else send(event);
      });
      let current: LocationEvent | null;
      try {
        current = await readCurrent();
      } catch (error) {
        detach();
        throw error;
      }
      return {
        detach,
        start(write) {
          // A position older than one already sent is stale (a late message); the map never jumps back.
          let lastSentAt = Number.NEGATIVE_INFINITY;
          send = (event) => {
            const at = Date.parse(event.at);
            if (at < lastSentAt) return;
            lastSentAt = at;
            write(formatLocationEvent(event));
          };
          if (current) send(current);
          for (const event of pending ?? []) send(event);
          pending = null;
        },
      };
    },
  });

  async function serve(
    request: FastifyRequest,
    reply: FastifyReply,
    source: StreamSource,
    {
      expiresAt,
      stillAllowed,
      owner,
      driverId,
      driverIds,
      maxBufferedBytes = MAX_BUFFERED_BYTES,
    }: StreamTerms,
  ): Promise<void> {
    // The slot is taken before the first await, so that parallel opens cannot pass the cap.
    if (owner && (perSession.get(owner.sessionId) ?? 0) >= MAX_STREAMS_PER_SESSION) {
      throw new AppError('RATE_LIMITED', m.tooManyStreams(), { headers: { 'retry-after': '5' } });
    }
    if (owner && (perAccount.get(owner.accountId) ?? 0) >= accountCap) {
      throw new AppError('RATE_LIMITED', m.tooManyStreamsForAccount(), { headers: { 'retry-after': '5' } });
    }
    if (owner) {
      perSession.set(owner.sessionId, (perSession.get(owner.sessionId) ?? 0) + 1);
      perAccount.set(owner.accountId, (perAccount.get(owner.accountId) ?? 0) + 1);
    }
    let slotHeld = Boolean(owner);
    const releaseSlot = () => {
      if (!slotHeld || !owner) return;
      slotHeld = false;
      release(perSession, owner.sessionId);
      release(perAccount, owner.accountId);
    };

    let attached: Awaited<ReturnType<StreamSource['attach']>>;
    try {
      attached = await source.attach();
    } catch (error) {
      releaseSlot();
      throw error;
    }

    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      // Security headers and rate-limit headers set by earlier hooks still apply.
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'x-request-id': request.id,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      // The connection serves this stream only; closing it with the stream lets the server
      // shut down without waiting for keep-alive timeouts.
      connection: 'close',
      'x-accel-buffering': 'no',
    });

    let expiry: NodeJS.Timeout | undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      attached.detach();
      clearTimeout(heartbeat);
      clearInterval(heartbeat);
      clearTimeout(expiry);
      open.delete(end);
      releaseSlot();
      if (!raw.writableEnded) raw.end();
      request.log.debug({ driverId }, 'live stream ended');
    };
    const write = (chunk: string) => {
      if (ended) return;
      raw.write(chunk);
      if (raw.writableLength > maxBufferedBytes) end();
    };
    // One check at a time; a change announced during a check is checked again after it.
    let checking = false;
    let checkAgain = false;
    const recheck = () => {
      if (!stillAllowed || ended) return;
      if (checking) {
        checkAgain = true;
        return;
      }
      checking = true;
      stillAllowed().then(
        (allowed) => {
          checking = false;
          if (!allowed) end();
          else if (checkAgain) {
            checkAgain = false;
            recheck();
          }
        },
        () => end(),
      );
    };
    const beat = () => {
      write(': heartbeat\n\n');
      recheck();
    };
    // Each stream beats at its own phase, so that the backstop checks of many streams do not
    // all hit the database at the same moment.
    heartbeat = setTimeout(
      () => {
        beat();
        heartbeat = setInterval(beat, heartbeatMs);
      },
      Math.round(heartbeatMs * (0.5 + Math.random() / 2)),
    );

    open.set(end, { driverId, driverIds, owner, end, recheck });
    raw.on('close', end);
    raw.on('error', end);
    // A client that left while the stream was being prepared has already closed its side.
    if (raw.destroyed || request.raw.socket?.destroyed) {
      end();
      return;
    }

    // The comment goes out at once, so the client sees the stream open even with nothing to send.
    write(': connected\n\n');
    attached.start(write);

    const endAtExpiry = () => {
      if (ended) return;
      const left = expiresAt - Date.now();
      if (left <= 0) end();
      else expiry = setTimeout(endAtExpiry, Math.min(left, MAX_TIMER_MS));
    };
    endAtExpiry();
    request.log.debug({ driverId }, 'live stream opened');
  }

  return {
    get size() {
      return open.size;
    },

    endAll() {
      for (const end of [...open.keys()]) end();
    },

    open(request, reply, { readCurrent, ...terms }) {
      return serve(request, reply, driverSource(terms.driverId, readCurrent), terms);
    },

    driverSource,

    serve,
  };
}

/** Gives back one slot of a count kept per key, forgetting the key at zero. */
function release(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left > 0) counts.set(key, left);
  else counts.delete(key);
}
