import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import type { LocationBus } from '../../infra/location-bus';

/** A comment line this often keeps proxies and load balancers from closing a quiet stream. */
export const HEARTBEAT_MS = 20_000;
// setTimeout fires at once beyond this (about 24.8 days); longer waits are taken in steps.
const MAX_TIMER_MS = 2 ** 31 - 1;
// A client that stops reading is dropped rather than buffered without end.
const MAX_BUFFERED_BYTES = 256 * 1024;

/** One Server-Sent Events message carrying a position. */
export function formatLocationEvent(event: LocationEvent): string {
  return `event: location\ndata: ${JSON.stringify(event)}\n\n`;
}

export type LocationStreams = {
  /**
   * Takes over the reply and streams one driver's positions: the current one first, then each
   * new one from the bus, until the client goes, the caller's token expires or the server closes.
   */
  open(
    request: FastifyRequest,
    reply: FastifyReply,
    stream: {
      driverId: string;
      /** Read after subscribing, so that no position published meanwhile is missed. */
      readCurrent: () => Promise<LocationEvent | null>;
      /** When the caller's ID token expires (ms since the epoch). */
      expiresAt: number;
      /**
       * Asked at every heartbeat: false ends the stream (the session was revoked, the account
       * disabled, or the driver left the caller's scope since the stream opened).
       */
      stillAllowed?: () => Promise<boolean>;
    },
  ): Promise<void>;
  /** Ends every open stream (server shutdown). */
  endAll(): void;
  /** How many streams are open. */
  readonly size: number;
};

export function createLocationStreams(bus: LocationBus, heartbeatMs = HEARTBEAT_MS): LocationStreams {
  const open = new Set<() => void>();

  return {
    get size() {
      return open.size;
    },

    endAll() {
      for (const end of [...open]) end();
    },

    async open(request, reply, { driverId, readCurrent, expiresAt, stillAllowed }) {
      // Positions that arrive before the stream is ready wait here, in order.
      let pending: LocationEvent[] | null = [];
      let send: (event: LocationEvent) => void = () => {};
      const unsubscribe = bus.subscribe((event) => {
        if (event.driverId !== driverId) return;
        if (pending) pending.push(event);
        else send(event);
      });

      let current: LocationEvent | null;
      try {
        current = await readCurrent();
      } catch (error) {
        unsubscribe();
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
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        open.delete(end);
        if (!raw.writableEnded) raw.end();
        request.log.debug({ driverId }, 'location stream ended');
      };
      const write = (chunk: string) => {
        if (ended) return;
        raw.write(chunk);
        if (raw.writableLength > MAX_BUFFERED_BYTES) end();
      };
      const heartbeat = setInterval(() => {
        write(': heartbeat\n\n');
        stillAllowed?.().then(
          (allowed) => allowed || end(),
          () => end(),
        );
      }, heartbeatMs);

      // A position older than one already sent is stale (a late message); the map never jumps back.
      let lastSentAt = Number.NEGATIVE_INFINITY;
      send = (event) => {
        const at = Date.parse(event.at);
        if (at < lastSentAt) return;
        lastSentAt = at;
        write(formatLocationEvent(event));
      };

      open.add(end);
      raw.on('close', end);
      raw.on('error', end);
      // A client that left while the position was read has already closed its side.
      if (raw.destroyed || request.raw.socket?.destroyed) {
        end();
        return;
      }

      // The comment goes out at once, so the client sees the stream open even with no position.
      write(': connected\n\n');
      if (current) send(current);
      for (const event of pending) send(event);
      pending = null;

      const endAtExpiry = () => {
        if (ended) return;
        const left = expiresAt - Date.now();
        if (left <= 0) end();
        else expiry = setTimeout(endAtExpiry, Math.min(left, MAX_TIMER_MS));
      };
      endAtExpiry();
      request.log.debug({ driverId }, 'location stream opened');
    },
  };
}
