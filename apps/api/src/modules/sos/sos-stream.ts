import type { SosAlert } from '@bmet/shared/schemas/sos';
import type { AlertNotice, LocationBus } from '../../infra/location-bus';
import { isDriverInScope, type ScopeCaller } from '../../lib/scope';
import type { StreamSource } from '../driver-locations/location-stream';
import type { PlacedAlert } from './repository';

export type SosHub = {
  /** The stream of the alerts a viewer may see: the open ones first, then every change. */
  source(viewer: ScopeCaller): StreamSource;
  readonly viewers: number;
};

const message = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Whether a viewer's scope holds an alert: its driver's, as driverScope decides; one without a driver is the admins'. */
export function isAlertInScope(viewer: ScopeCaller, placed: PlacedAlert): boolean {
  if (viewer.role === 'admin') return true;
  return placed.placement !== null && isDriverInScope(viewer, placed.placement);
}

/**
 * The SOS streams of one instance. Every change to an alert is announced on the bus (by id, from
 * whichever instance made it); this instance reads the alert once and sends it to each of its
 * viewers whose scope holds it, as `event: sos` with `{kind, alert}`. A stream starts with
 * `event: open`: every alert not yet resolved in the viewer's scope, read after joining, so that
 * nothing raised meanwhile is missed (an alert may then come twice; the client keeps the newer).
 */
export function createSosHub(options: {
  bus: Pick<LocationBus, 'subscribeAlerts'>;
  readAlert: (id: string) => Promise<PlacedAlert | null>;
  readOpen: (viewer: ScopeCaller) => Promise<SosAlert[]>;
  onError?: (error: unknown) => void;
}): SosHub {
  const writers = new Map<(chunk: string) => void, ScopeCaller>();
  let stop: (() => void) | null = null;

  const deliver = async (notice: AlertNotice) => {
    if (notice.kind === 'inbox') {
      const told = new Set(notice.accountIds);
      for (const [write, viewer] of writers) if (told.has(viewer.id)) write(message('inbox', {}));
      return;
    }
    try {
      const placed = await options.readAlert(notice.alertId);
      if (!placed) return;
      const chunk = message('sos', { kind: notice.kind, alert: placed.alert });
      for (const [write, viewer] of writers) if (isAlertInScope(viewer, placed)) write(chunk);
    } catch (error) {
      options.onError?.(error);
    }
  };

  const join = (viewer: ScopeCaller, write: (chunk: string) => void) => {
    writers.set(write, viewer);
    if (!stop) stop = options.bus.subscribeAlerts((notice) => void deliver(notice));
    return () => {
      writers.delete(write);
      if (writers.size === 0) {
        stop?.();
        stop = null;
      }
    };
  };

  return {
    get viewers() {
      return writers.size;
    },
    source(viewer) {
      return {
        async attach() {
          const held: string[] = [];
          let target: ((chunk: string) => void) | null = null;
          const leave = join(viewer, (chunk) => (target ? target(chunk) : held.push(chunk)));
          let open: SosAlert[];
          try {
            open = await options.readOpen(viewer);
          } catch (error) {
            leave();
            throw error;
          }
          return {
            start(write) {
              write(message('open', open));
              for (const chunk of held) write(chunk);
              target = write;
            },
            detach: leave,
          };
        },
      };
    },
  };
}
