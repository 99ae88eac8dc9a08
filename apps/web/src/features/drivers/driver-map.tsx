import 'leaflet/dist/leaflet.css';
import './driver-map.css';
import L from 'leaflet';
import { useEffect } from 'react';
import { MapContainer, Marker, TileLayer, useMap, ZoomControl } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import type { Position } from '@bmet/shared/schemas/driver';
import { useSettings } from '../../lib/settings';

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
  const { data: settings } = useSettings();
  return (
    <MapContainer
      center={[position.lat, position.long]}
      zoom={ZOOM}
      // Leaflet's panes and controls use z-indexes up to 1000; isolate them so dialogs stay on top.
      style={{ height: 300, width: '100%', borderRadius: 8, isolation: 'isolate' }}
      scrollWheelZoom={false}
      aria-label={m.driversMapOf({ name: label })}
      // Leaflet's own zoom buttons are titled in English; this one is titled in the current language.
      zoomControl={false}
    >
      <ZoomControl zoomInTitle={m.driversZoomIn()} zoomOutTitle={m.driversZoomOut()} />
      {settings && <TileLayer url={settings.mapTileUrl} attribution={settings.mapAttribution} />}
      <Marker position={[position.lat, position.long]} icon={taxiIcon} alt={label} title={label} />
      <FollowPosition position={position} />
    </MapContainer>
  );
}
