import { EventEmitter } from 'node:events';
import { z } from 'zod';
import type { Db } from '../db/client';

/** The PostgreSQL channel the database's triggers announce access changes on (migration 0006). */
export const ACCESS_CHANNEL = 'bmet_access';

const accessEventSchema = z.object({
  kind: z.enum(['session', 'account', 'driver']),
  id: z.string(),
});
/** A committed change that may end someone's access: a session, an account or a driver's scope. */
export type AccessEvent = z.infer<typeof accessEventSchema>;

export type AccessEvents = {
  /** False where the database client cannot listen: no announcement will ever come. */
  listening: boolean;
  subscribe(listener: (event: AccessEvent) => void): () => void;
  close(): Promise<void>;
};

type Listening = (channel: string, callback: (payload: string) => void) => Promise<unknown>;

/**
 * Listens to the database's announcements of access changes. Triggers send them when a session is
 * revoked, an account disabled, deleted or moved, or a driver reassigned or deleted, once the
 * change commits, and PostgreSQL delivers them to every server on the database: whichever
 * instance made the change and whatever made it (a route, a command-line tool), open live streams
 * everywhere hear of it at once.
 */
export async function listenForAccessEvents(db: Db, warn: (message: string) => void): Promise<AccessEvents> {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  // Both drivers under Drizzle (PGlite and postgres-js) offer listen(channel, callback).
  const client = (db as unknown as { $client?: { listen?: Listening } }).$client;
  let stop: () => Promise<void> = async () => {};
  if (typeof client?.listen === 'function') {
    const handle = await client.listen(ACCESS_CHANNEL, (payload) => {
      try {
        const parsed = accessEventSchema.safeParse(JSON.parse(payload));
        if (parsed.success) emitter.emit('event', parsed.data);
      } catch {
        // not ours
      }
    });
    // PGlite answers the function that stops listening; postgres-js an object holding it.
    const unlisten =
      typeof handle === 'function'
        ? (handle as () => Promise<void>)
        : (handle as { unlisten?: () => Promise<void> } | undefined)?.unlisten;
    if (unlisten) stop = unlisten;
  } else {
    warn('This database client cannot listen: live streams notice revocations at their heartbeat only.');
  }
  return {
    listening: typeof client?.listen === 'function',
    subscribe(listener) {
      emitter.on('event', listener);
      return () => emitter.off('event', listener);
    },
    async close() {
      emitter.removeAllListeners();
      await stop().catch(() => {});
    },
  };
}
