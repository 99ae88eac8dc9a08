import { EventEmitter } from 'node:events';
import type { LocationEvent } from '@bmet/shared/schemas/driver';

/**
 * A change to an SOS alert, by id: each instance reads the alert once and tells its own connected
 * staff whose scope holds it. `reraised`: nobody acknowledged it in time. `inbox`: these accounts'
 * inboxes have something new (their tabs ask for it again).
 */
export type AlertNotice =
  { alertId: string; kind: 'raised' | 'changed' | 'reraised' } | { kind: 'inbox'; accountIds: string[] };

/**
 * Carries driver positions from the instance that received them to every dashboard, and SOS
 * alerts' changes to every instance's control rooms and banners.
 */
export type LocationBus = {
  publish(event: LocationEvent): Promise<void>;
  /** Calls the listener for every position; answers the function that stops it. */
  subscribe(listener: (event: LocationEvent) => void): () => void;
  publishAlert(notice: AlertNotice): Promise<void>;
  /** Calls the listener for every SOS alert's change; answers the function that stops it. */
  subscribeAlerts(listener: (notice: AlertNotice) => void): () => void;
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
    async publishAlert(notice) {
      emitter.emit('alert', notice);
    },
    subscribeAlerts(listener) {
      emitter.on('alert', listener);
      return () => emitter.off('alert', listener);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}
