import 'leaflet/dist/leaflet.css';
import './base-map.css';
import type { FitBoundsOptions, LatLngBoundsExpression, LatLngExpression } from 'leaflet';
import type { CSSProperties, ReactNode } from 'react';
import { MapContainer, TileLayer, ZoomControl } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import { useSettings } from '../lib/settings';

/**
 * Every map of the console (the fleet, a driver, a trip): a Leaflet map with the tiles the
 * settings name and zoom buttons titled in the current language; what it shows works without
 * tiles. Loaded only with a map.
 */
export function BaseMap({
  label,
  children,
  style,
  className,
  center,
  zoom,
  bounds,
  boundsOptions,
  scrollWheelZoom = true,
  worldCopyJump,
}: {
  label: string;
  children: ReactNode;
  style: CSSProperties;
  className?: string;
  center?: LatLngExpression;
  zoom?: number;
  bounds?: LatLngBoundsExpression;
  boundsOptions?: FitBoundsOptions;
  scrollWheelZoom?: boolean;
  worldCopyJump?: boolean;
}) {
  const { data: settings } = useSettings();
  return (
    <MapContainer
      center={center}
      zoom={zoom}
      bounds={bounds}
      boundsOptions={boundsOptions}
      className={className}
      // Leaflet's panes and controls use z-indexes up to 1000; isolate them so dialogs stay on top.
      style={{ ...style, isolation: 'isolate' }}
      scrollWheelZoom={scrollWheelZoom}
      worldCopyJump={worldCopyJump}
      aria-label={label}
      // Leaflet's own zoom buttons are titled in English; these are titled in the current language.
      zoomControl={false}
    >
      <ZoomControl zoomInTitle={m.driversZoomIn()} zoomOutTitle={m.driversZoomOut()} />
      {settings && <TileLayer url={settings.mapTileUrl} attribution={settings.mapAttribution} />}
      {children}
    </MapContainer>
  );
}
