import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { locationEventSchema, type LocationEvent } from '@bmet/shared/schemas/driver';
import { z } from 'zod';
import type { LocationBus } from './location-bus';

/** An SOS alert's change as instances tell each other of it (anything else on the channel is dropped). */
const alertNoticeSchema = z.union([
  z.strictObject({ alertId: z.uuid(), kind: z.enum(['raised', 'changed', 'reraised']) }),
  z.strictObject({ kind: z.literal('inbox'), accountIds: z.array(z.uuid()).max(100_000) }),
]);

/** The pub/sub channel every API instance publishes positions on and listens to. */
export const LOCATION_CHANNEL = 'bmet:driver-locations';

export type RedisLocationBusOptions = {
  /** Another channel (tests use their own, so that parallel runs on one Redis do not mix). */
  channel?: string;
  /** Where connection trouble and dropped messages are reported. */
  warn?: (message: string) => void;
};

/** The URL without its password, for messages. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}

/**
 * Several API instances: each publishes the positions it receives on one Redis channel and passes
 * every message of that channel (its own included) to the dashboards connected to it. A subscribed
 * Redis connection can do nothing else, hence two connections. Messages are checked on receipt:
 * anything else published on the channel is dropped, never pushed to a browser.
 */
export async function createRedisLocationBus(
  url: string,
  options: RedisLocationBusOptions = {},
): Promise<LocationBus> {
  const channel = options.channel ?? LOCATION_CHANNEL;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  // A failed publish gives up quickly: the position is already stored, and the dashboards' polling
  // picks it up; a request must not wait on a Redis that is down. A Redis that keeps the connection
  // but stops answering fails each command after commandTimeout, instead of piling them up.
  const settings = { lazyConnect: true, connectTimeout: 5000, maxRetriesPerRequest: 2, commandTimeout: 5000 };
  const publisher = new Redis(url, { ...settings, connectionName: 'bmet-locations-publisher' });
  const subscriber = new Redis(url, { ...settings, connectionName: 'bmet-locations-subscriber' });
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);

  // ioredis reconnects by itself and reports every failed attempt; say each distinct trouble once.
  let lastTrouble = '';
  for (const [name, connection] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    connection.on('error', (error: Error) => {
      const trouble = `Redis location bus (${name}): ${error.message}`;
      if (trouble !== lastTrouble) warn(trouble);
      lastTrouble = trouble;
    });
    connection.on('ready', () => {
      if (lastTrouble) warn(`Redis location bus (${name}): connected again`);
      lastTrouble = '';
    });
  }

  let dropped = 0;
  const drop = () => {
    if (dropped++ % 1000 === 0) warn(`Redis location bus: dropped a malformed message (${dropped} so far)`);
  };
  const alertChannel = `${channel}:sos`;
  subscriber.on('message', (from: string, message: string) => {
    if (from === alertChannel) {
      try {
        const parsed = alertNoticeSchema.safeParse(JSON.parse(message));
        if (parsed.success) emitter.emit('alert', parsed.data);
        else drop();
      } catch {
        drop();
      }
      return;
    }
    if (from !== channel) return;
    let content: unknown;
    try {
      content = JSON.parse(message);
    } catch {
      drop();
      return;
    }
    // A message carries the positions an instance received in one moment (or, from an older
    // instance, a single position).
    for (const item of Array.isArray(content) ? content : [content]) {
      const parsed = locationEventSchema.safeParse(item);
      if (parsed.success) emitter.emit('location', parsed.data);
      else drop();
    }
  });

  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
    await subscriber.subscribe(channel, alertChannel);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw new Error(`Cannot reach Redis at ${describeUrl(url)}: ${(error as Error).message}`, {
      cause: error,
    });
  }

  // The positions of one moment go out as one message: a fleet reporting 2,000 times a second
  // costs Redis and every instance a few dozen messages a second, not 2,000.
  let outgoing: { events: LocationEvent[]; sent: Promise<void> } | null = null;
  const flush = (batch: { events: LocationEvent[] }) =>
    new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      if (outgoing === batch) outgoing = null;
      await publisher.publish(channel, JSON.stringify(batch.events));
    });

  return {
    async ping() {
      await publisher.ping();
    },
    publish(event) {
      if (!outgoing) {
        const batch = { events: [] as LocationEvent[], sent: Promise.resolve() };
        batch.sent = flush(batch);
        outgoing = batch;
      }
      outgoing.events.push(event);
      return outgoing.sent;
    },
    subscribe(listener) {
      emitter.on('location', listener);
      return () => emitter.off('location', listener);
    },
    async publishAlert(notice) {
      await publisher.publish(alertChannel, JSON.stringify(notice));
    },
    subscribeAlerts(listener) {
      emitter.on('alert', listener);
      return () => emitter.off('alert', listener);
    },
    async close() {
      emitter.removeAllListeners();
      // quit waits for pending replies; a connection that is down is simply dropped.
      await Promise.all(
        [publisher, subscriber].map((connection) =>
          connection.status === 'ready'
            ? connection.quit().then(
                () => {},
                () => connection.disconnect(),
              )
            : connection.disconnect(),
        ),
      );
    },
  };
}
