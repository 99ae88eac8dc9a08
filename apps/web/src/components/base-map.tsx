import 'leaflet/dist/leaflet.css';
import './base-map.css';
import type { FitBoundsOptions, LatLngBoundsExpression, LatLngExpression } from 'leaflet';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { MapContainer, TileLayer, ZoomControl } from 'react-leaflet';
import { m } from '@bmet/shared/paraglide/messages';
import { useSettings } from '../lib/settings';
import { IndiaBorders, IndiaCities } from './offline-india';

/** How long a tile server has to answer the first tile before the map goes on without tiles. */
const PROBE_MS = 8_000;
/** Tiles failing one after another, none loading between them: the server stopped answering. */
const FAILURES_IN_A_ROW = 4;

/**
 * Whether the tile server answers, asked once a page with one tile over India: with none (a
 * control room on a closed network, a failed CDN), no map asks it again, so the console logs one
 * failed tile, not one for every tile of every map.
 */
const reachable = new Map<string, Promise<boolean>>();

function probeTiles(template: string): Promise<boolean> {
  let probe = reachable.get(template);
  if (!probe) {
    const url = template
      .replace('{s}', 'a')
      .replace('{z}', '4')
      .replace('{x}', '11')
      .replace('{y}', '6')
      .replace('{r}', '');
    probe = new Promise<boolean>((resolve) => {
      const image = new Image();
      const timer = setTimeout(() => resolve(false), PROBE_MS);
      image.onload = () => {
        clearTimeout(timer);
        resolve(true);
      };
      image.onerror = () => {
        clearTimeout(timer);
        resolve(false);
      };
      image.src = url;
    });
    reachable.set(template, probe);
  }
  return probe;
}

/** 'up' once the tile server answered, 'down' when it did not (or stopped), 'asking' meanwhile. */
function useTiles(template: string | undefined): ['asking' | 'up' | 'down', () => void] {
  const [state, setState] = useState<'asking' | 'up' | 'down'>('asking');
  useEffect(() => {
    if (!template) return;
    let kept = true;
    void probeTiles(template).then((up) => kept && setState(up ? 'up' : 'down'));
    return () => {
      kept = false;
    };
  }, [template]);
  const failed = () => {
    if (template) reachable.set(template, Promise.resolve(false));
    setState('down');
  };
  return [state, failed];
}

/**
 * Every map of the console (the fleet, a driver, a trip): a Leaflet map with India's state
 * borders shipped with the console, the tiles the settings name over them when their server
 * answers (the major cities' names when it does not), and zoom buttons titled in the current
 * language. Loaded only with a map.
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
  const [tiles, tilesFailed] = useTiles(settings?.mapTileUrl);
  const failedInARow = useRef(0);
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
      <IndiaBorders />
      {settings && tiles === 'up' && (
        <TileLayer
          url={settings.mapTileUrl}
          attribution={settings.mapAttribution}
          // A server that stops answering (tiles failing one after another, none loading between
          // them) is left alone: the borders and cities stand in. A missing tile here and there is not.
          eventHandlers={{
            tileload: () => (failedInARow.current = 0),
            tileerror: () => {
              if (++failedInARow.current >= FAILURES_IN_A_ROW) tilesFailed();
            },
          }}
        />
      )}
      {tiles === 'down' && <IndiaCities />}
      {children}
    </MapContainer>
  );
}
