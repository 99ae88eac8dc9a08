import L from 'leaflet';
import { useEffect } from 'react';
import { Marker, useMap } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import type { Position } from '@bmet/shared/schemas/driver';
import { BaseMap } from '../../components/base-map';

const taxiIcon = L.icon({
  iconUrl: '/markers/taxi.svg',
  iconSize: [50, 50],
  iconAnchor: [25, 50],
  className: 'driver-marker',
});

const ZOOM = 12;

function FollowPosition({ position }: { position: Position }) {
  const map = useMap();
  useEffect(() => {
    map.panTo([position.lat, position.long], { animate: true });
  }, [map, position.lat, position.long]);
  return null;
}

/** The driver's position on a map; the marker shows even when the tiles cannot load. */
export function DriverMap({ position, label }: { position: Position; label: string }) {
  return (
    <BaseMap
      center={[position.lat, position.long]}
      zoom={ZOOM}
      style={{ height: 300, width: '100%', borderRadius: 8 }}
      scrollWheelZoom={false}
      label={m.driversMapOf({ name: label })}
    >
      <Marker position={[position.lat, position.long]} icon={taxiIcon} alt={label} title={label} />
      <FollowPosition position={position} />
    </BaseMap>
  );
}
