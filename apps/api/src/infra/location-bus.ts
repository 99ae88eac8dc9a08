import { EventEmitter } from 'node:events';
import type { LocationEvent } from '@bmet/shared/schemas/driver';

/** Carries driver positions from the instance that received them to every dashboard. */
export type LocationBus = {
  publish(event: LocationEvent): Promise<void>;
  /** Calls the listener for every position; answers the function that stops it. */
  subscribe(listener: (event: LocationEvent) => void): () => void;
  close(): Promise<void>;
  /** Throws when the bus's server (Redis) does not answer; absent for the in-process bus. */
  ping?(): Promise<void>;
};

/** One process: positions reach the dashboards connected to this instance. */
export function createInProcessLocationBus(): LocationBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(event) {
      emitter.emit('location', event);
    },
    subscribe(listener) {
      emitter.on('location', listener);
      return () => emitter.off('location', listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
