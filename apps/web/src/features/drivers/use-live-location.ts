import { useEffect, useState } from 'react';
import { LOCATION_POLL_MS } from '@bmet/shared/constants';
import type { Position } from '@bmet/shared/schemas/driver';
import { listenToDriverPositions } from '../../lib/tab-stream';
import { usePolledLocation } from './api';

export type LiveLocation = {
  position: Position | null;
  positionAt: string | null;
  /** 'live' while the server pushes positions; 'polling' while the spec's 5-second poll stands in. */
  mode: 'connecting' | 'live' | 'polling';
};

/**
 * A driver's position, pushed by the server on the tab's one stream and, whenever the stream is
 * down, polled every 5 seconds.
 */
export function useLiveLocation(
  driverId: string,
  initial: { position: Position | null; positionAt: string | null },
): LiveLocation {
  const [state, setState] = useState<LiveLocation>({ ...initial, mode: 'connecting' });
  const polled = usePolledLocation(driverId, state.mode !== 'live', LOCATION_POLL_MS);

  useEffect(
    () =>
      listenToDriverPositions(
        driverId,
        ({ lat, long, at }) =>
          setState((s) =>
            s.positionAt && s.positionAt > at ? s : { position: { lat, long }, positionAt: at, mode: 'live' },
          ),
        (status) =>
          setState((s) => ({
            ...s,
            mode: status === 'live' ? 'live' : status === 'down' ? 'polling' : s.mode,
          })),
      ),
    [driverId],
  );

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
