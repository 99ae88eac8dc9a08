import type { FleetDriver } from '@bmet/shared/schemas/fleet';
import type { AccessEvents } from '../../infra/access-events';
import type { LocationBus } from '../../infra/location-bus';
import { type ScopeCaller, isDriverInScope } from '../../lib/scope';
import type { StreamSource } from '../driver-locations/location-stream';
import type { FleetRow, PlacedDriver } from './repository';

/**
 * How often the fleet streams get the positions of the moment: a fleet reporting 2,000 times a
 * second costs each viewer about three messages a second, not 2,000.
 */
export const FLEET_FLUSH_MS = 300;
/** A viewer of the whole fleet may fall this far behind (a few seconds of a large fleet) before it is dropped. */
export const FLEET_MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

export type FleetHub = {
  /** The stream of the cars a viewer may see, from the moment it starts. */
  source(viewer: ScopeCaller): StreamSource;
  /** How many fleet streams are joined. */
  readonly viewers: number;
};

/** A car as the fleet map and its stream carry it. */
export function toFleetDriver(row: FleetRow): FleetDriver {
  return {
    id: row.id,
    name: row.name,
    lat: row.lat,
    long: row.long,
    updatedAt: row.positionAt?.toISOString() ?? null,
    carType: row.carType,
    franchiseId: row.franchiseId,
  };
}

type Group = { viewer: ScopeCaller; writers: Set<(chunk: string) => void> };

/** Viewers with the same scope share one serialization of each message. */
const scopeKey = (viewer: ScopeCaller) => (viewer.role === 'admin' ? 'admin' : `${viewer.role}:${viewer.id}`);

const message = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * The fleet streams of one instance. Positions from the bus and drivers' changes announced by the
 * database are collected, and every FLEET_FLUSH_MS the drivers concerned are read once (where they
 * are, and where they stand in the hierarchy) and each viewer is sent its share, decided on the
 * server by the same rule as driverScope: `positions` for cars it may see, `gone` for changed
 * drivers it may no longer see, and `refresh` to city dealers when an account changed (a franchise
 * moved to another dealer moves all its drivers at once). Reading the drivers at delivery, rather
 * than trusting a cache, means a driver moved to another franchise leaves the old dealer's stream
 * with the next message.
 */
export function createFleetHub(options: {
  bus: LocationBus;
  readDrivers: (ids: string[]) => Promise<PlacedDriver[]>;
  accessEvents?: Pick<AccessEvents, 'subscribe'>;
  flushMs?: number;
  onError?: (error: unknown) => void;
}): FleetHub {
  const flushMs = options.flushMs ?? FLEET_FLUSH_MS;
  const groups = new Map<string, Group>();
  let viewers = 0;
  let moved = new Set<string>();
  let changed = new Set<string>();
  let refresh = false;
  let flushing = false;
  let stop: (() => void) | null = null;

  const flush = async () => {
    if (flushing || (moved.size === 0 && changed.size === 0 && !refresh)) return;
    flushing = true;
    const [movedNow, changedNow, refreshNow] = [moved, changed, refresh];
    moved = new Set();
    changed = new Set();
    refresh = false;
    try {
      const rows = await options.readDrivers([...new Set([...movedNow, ...changedNow])]);
      deliver(rows, changedNow, refreshNow);
    } catch (error) {
      // Tried again with the next moment's drivers.
      for (const id of movedNow) moved.add(id);
      for (const id of changedNow) changed.add(id);
      refresh ||= refreshNow;
      options.onError?.(error);
    } finally {
      flushing = false;
    }
  };

  const deliver = (rows: PlacedDriver[], changedNow: Set<string>, refreshNow: boolean) => {
    const found = new Set(rows.map((row) => row.id));
    for (const group of groups.values()) {
      const positions: FleetDriver[] = [];
      const gone: string[] = [];
      for (const row of rows) {
        if (row.lat !== null && row.long !== null && isDriverInScope(group.viewer, row)) {
          positions.push(toFleetDriver(row as FleetRow));
        } else if (changedNow.has(row.id)) gone.push(row.id);
      }
      for (const id of changedNow) if (!found.has(id)) gone.push(id);
      let chunk = '';
      if (refreshNow && group.viewer.role === 'city_dealer') chunk += message('refresh', {});
      if (gone.length > 0) chunk += message('gone', gone);
      if (positions.length > 0) chunk += message('positions', positions);
      if (chunk) for (const write of group.writers) write(chunk);
    }
  };

  // The bus, the database's announcements and the timer are held while someone watches.
  const start = () => {
    const unsubscribeBus = options.bus.subscribe((event) => moved.add(event.driverId));
    const unsubscribeAccess = options.accessEvents?.subscribe((event) => {
      if (event.kind === 'driver') changed.add(event.id);
      else if (event.kind === 'account') refresh = true;
    });
    const timer = setInterval(() => void flush(), flushMs);
    timer.unref();
    return () => {
      unsubscribeBus();
      unsubscribeAccess?.();
      clearInterval(timer);
      moved.clear();
      changed.clear();
      refresh = false;
    };
  };

  const join = (viewer: ScopeCaller, write: (chunk: string) => void) => {
    const key = scopeKey(viewer);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { viewer, writers: new Set() }));
    group.writers.add(write);
    if (viewers++ === 0) stop = start();
    let joined = true;
    return () => {
      if (!joined) return;
      joined = false;
      group.writers.delete(write);
      if (group.writers.size === 0) groups.delete(key);
      if (--viewers === 0) {
        stop?.();
        stop = null;
      }
    };
  };

  return {
    get viewers() {
      return viewers;
    },
    source(viewer) {
      return {
        async attach() {
          let leave = () => {};
          return {
            // Joined as the stream starts: the client loads the whole fleet once it sees the
            // stream open, so nothing that happens after that is missed.
            start(write) {
              leave = join(viewer, write);
            },
            detach: () => leave(),
          };
        },
      };
    },
  };
}
