import L from 'leaflet';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { CircleMarker, Marker, Tooltip } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import { LOCATION_POLL_MS } from '@bmet/shared/constants';
import type { driverLocationResponseSchema } from '@bmet/shared/schemas/driver';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import { BaseMap } from '../../components/base-map';
import { labelContent } from '../../components/map-label';
import { apiRequest } from '../../lib/api-client';
import { listenToDriverPositions, type PushedPosition } from '../../lib/tab-stream';

const taxiIcon = L.icon({
  iconUrl: '/markers/taxi.svg',
  iconSize: [40, 40],
  iconAnchor: [20, 40],
  className: 'driver-marker',
});

type Position = PushedPosition;

/**
 * The driver's position as the tab's stream pushes it and, while the stream carries none for this
 * driver (down, or the driver no longer in the caller's scope), as polled every 5 seconds.
 */
function useDriverPosition(driverId: string | null): Position | null {
  const [position, setPosition] = useState<Position | null>(null);
  const [streamed, setStreamed] = useState(true);
  useEffect(() => {
    if (!driverId) return;
    return listenToDriverPositions(
      driverId,
      (pushed) => setPosition((held) => (held && held.at > pushed.at ? held : pushed)),
      (status) => setStreamed(status !== 'down'),
    );
  }, [driverId]);
  const polled = useQuery({
    queryKey: ['sos', 'driver-position', driverId],
    queryFn: ({ signal }) =>
      apiRequest<typeof driverLocationResponseSchema>('GET', `/drivers/location/${driverId}`, {
        signal,
      }).then((r) => r.data),
    enabled: Boolean(driverId) && !streamed,
    refetchInterval: LOCATION_POLL_MS,
    retry: false,
  });
  const asPolled = polled.data?.position && polled.data.positionAt;
  if (!streamed && asPolled && (!position || polled.data!.positionAt! > position.at))
    return { ...polled.data!.position!, at: polled.data!.positionAt! };
  return position;
}

/** A small map: where the alert came from (red ring) and where the driver is now (the car). */
export function SosMap({ alert }: { alert: SosAlert }) {
  const live = useDriverPosition(alert.status === 'resolved' ? null : alert.driverId);
  const points: [number, number][] = [];
  if (alert.lat !== null && alert.long !== null) points.push([alert.lat, alert.long]);
  if (live) points.push([live.lat, live.long]);
  if (points.length === 0) return null;
  return (
    <BaseMap
      center={points[0]}
      zoom={14}
      style={{ height: 220, width: '100%', borderRadius: 8 }}
      scrollWheelZoom={false}
      label={m.sosMapLabel({ number: alert.number })}
    >
      {alert.lat !== null && alert.long !== null && (
        <CircleMarker
          center={[alert.lat, alert.long]}
          radius={12}
          pathOptions={{ color: '#c92a2a', weight: 4 }}
        >
          <Tooltip key={m.sosMapAlertPosition()} content={labelContent(m.sosMapAlertPosition())} />
        </CircleMarker>
      )}
      {live && (
        <Marker
          position={[live.lat, live.long]}
          icon={taxiIcon}
          alt={m.sosMapDriverNow()}
          title={m.sosMapDriverNow()}
        />
      )}
    </BaseMap>
  );
}
