import { createParser } from 'eventsource-parser';
import { useEffect, useState } from 'react';
import { LOCATION_POLL_MS } from '@bmet/shared/constants';
import type { LocationEvent, Position } from '@bmet/shared/schemas/driver';
import { openLocationStream, usePolledLocation } from './api';

export type LiveLocation = {
  position: Position | null;
  positionAt: string | null;
  /** 'live' while the server pushes positions; 'polling' while the spec's 5-second poll stands in. */
  mode: 'connecting' | 'live' | 'polling';
};

const RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/**
 * A driver's position, pushed by the server (Server-Sent Events read with fetch, so the bearer
 * token goes along) and, whenever the push channel is down, polled every 5 seconds.
 */
export function useLiveLocation(
  driverId: string,
  initial: { position: Position | null; positionAt: string | null },
): LiveLocation {
  const [state, setState] = useState<LiveLocation>({ ...initial, mode: 'connecting' });
  const polled = usePolledLocation(driverId, state.mode !== 'live', LOCATION_POLL_MS);

  useEffect(() => {
    const controller = new AbortController();
    let attempt = 0;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;

    const connect = async () => {
      try {
        const response = await openLocationStream(driverId, controller.signal);
        if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
        attempt = 0;
        setState((s) => ({ ...s, mode: 'live' }));
        const parser = createParser({
          onEvent(event) {
            if (event.event !== 'location') return;
            const { lat, long, at } = JSON.parse(event.data) as Partial<LocationEvent>;
            if (typeof lat !== 'number' || typeof long !== 'number' || typeof at !== 'string') return;
            setState((s) =>
              s.positionAt && s.positionAt > at
                ? s
                : { position: { lat, long }, positionAt: at, mode: 'live' },
            );
          },
        });
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
      } catch {
        if (controller.signal.aborted) return;
      }
      if (controller.signal.aborted) return;
      setState((s) => ({ ...s, mode: 'polling' }));
      retryTimer = setTimeout(() => void connect(), RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
    };
    void connect();
    return () => {
      controller.abort();
      clearTimeout(retryTimer);
    };
  }, [driverId]);

  // While polling, a newer polled position wins.
  const polledData = polled.data;
  if (
    state.mode !== 'live' &&
    polledData?.positionAt &&
    (!state.positionAt || polledData.positionAt > state.positionAt)
  ) {
    return { position: polledData.position, positionAt: polledData.positionAt, mode: state.mode };
  }
  return state;
}
