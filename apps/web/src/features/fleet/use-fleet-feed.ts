import type { EventSourceMessage } from 'eventsource-parser';
import { useEffect, useState } from 'react';
import { LOCATION_POLL_MS } from '@bmet/shared/constants';
import type { FleetDriver } from '@bmet/shared/schemas/fleet';
import { listenToTabStream, type TabStreamStatus } from '../../lib/tab-stream';
import { loadFleet } from './api';
import type { FleetStore } from './fleet-store';

export type FleetFeed = {
  /** 'live' while the server pushes moves; 'polling' while the 5-second poll stands in. */
  mode: 'connecting' | 'live' | 'polling';
  /** Whether the whole fleet has been loaded once. */
  loaded: boolean;
  /** Why the first load failed (later failures keep the map as it is). */
  error: Error | null;
};

/** While polling, every twelfth poll (a minute) loads the whole fleet: cars that left the scope go. */
const FULL_LOAD_EVERY = 12;
/** A polled delta reaches this far behind the newest report held, so late reports are not missed. */
const DELTA_OVERLAP_MS = 60_000;

/**
 * Keeps the store in step with the server: the tab's stream first (asked for the fleet), then the
 * whole fleet once it is open (so that nothing after that moment is missed), then each pushed
 * batch. While the stream is down, the fleet is polled every 5 seconds (only what moved, and the
 * whole of it every minute) and the stream is tried again.
 */
export function useFleetFeed(store: FleetStore): FleetFeed {
  const [feed, setFeed] = useState<FleetFeed>({ mode: 'connecting', loaded: false, error: null });

  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    let pollTimer: ReturnType<typeof setInterval> | undefined;
    let loaded = false;
    let loading: Promise<void> | null = null;
    let loadAgain = false;
    // Cars said gone while a whole-fleet load was on its way: its answer may predate that.
    const goneWhileLoading = new Set<string>();

    const loadAll = (): Promise<void> => {
      if (loading) {
        loadAgain = true;
        return loading;
      }
      loading = (async () => {
        do {
          loadAgain = false;
          goneWhileLoading.clear();
          const startedAt = Date.now();
          try {
            store.replace(await loadFleet(undefined, signal), startedAt);
            store.remove([...goneWhileLoading]);
            loaded = true;
            setFeed((f) => ({ ...f, loaded: true, error: null }));
          } catch (error) {
            if (signal.aborted) return;
            if (!loaded) setFeed((f) => ({ ...f, error: error as Error }));
          }
        } while (loadAgain && !signal.aborted);
      })().finally(() => {
        loading = null;
      });
      return loading;
    };

    let polls = 0;
    const poll = async () => {
      const newest = store.newestAt();
      if (++polls % FULL_LOAD_EVERY === 0 || Number.isNaN(newest)) return loadAll();
      try {
        store.upsert(await loadFleet(new Date(newest - DELTA_OVERLAP_MS).toISOString(), signal));
      } catch {
        // The next poll tries again.
      }
    };
    const stopPolling = () => {
      clearInterval(pollTimer);
      pollTimer = undefined;
    };

    const onEvent = (event: EventSourceMessage) => {
      // Every stream starts with `open`: whatever moves from now on is pushed, the rest is in this load.
      if (event.event === 'open') void loadAll();
      else if (event.event === 'positions') store.upsert(JSON.parse(event.data) as FleetDriver[]);
      else if (event.event === 'gone') {
        const ids = JSON.parse(event.data) as string[];
        if (loading) for (const id of ids) goneWhileLoading.add(id);
        store.remove(ids);
      } else if (event.event === 'refresh') void loadAll();
    };

    const onStatus = (status: TabStreamStatus) => {
      if (status === 'live') {
        stopPolling();
        setFeed((f) => ({ ...f, mode: 'live' }));
      } else if (status === 'down') {
        setFeed((f) => ({ ...f, mode: 'polling' }));
        if (!loaded) void loadAll();
        pollTimer ??= setInterval(() => void poll(), LOCATION_POLL_MS);
      }
    };
    // The tab's one stream, asked for the fleet too; it tries again by itself when it drops.
    const stopListening = listenToTabStream(onEvent, { fleet: true, onStatus });
    return () => {
      controller.abort();
      stopListening();
      stopPolling();
    };
  }, [store]);

  return feed;
}
