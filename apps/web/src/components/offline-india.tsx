import type { FeatureCollection } from 'geojson';
import type { LatLngBounds } from 'leaflet';
import { useEffect, useState } from 'react';
import { CircleMarker, GeoJSON, Pane, Tooltip, useMapEvents } from 'react-leaflet';
import { currentLanguage } from '../lib/language';
import { INDIA_CITIES } from './india-cities';
import { labelContent } from './map-label';

/**
 * India as the console draws it without a tile server: the states' borders (from the
 * `geojson-india` package, India's official boundaries, MIT; its coordinates rounded to about 100 m
 * when built) in a pane under the tiles, so that tiles cover them when a server answers, and the
 * major cities' names when none does. Loaded with the first map only.
 */

let borders: Promise<FeatureCollection> | null = null;
const loadBorders = () =>
  (borders ??= import('geojson-india/india.json').then(
    (module) => (module as unknown as { default: FeatureCollection }).default,
  ));

/** The states' borders, under the tile pane (Leaflet's tiles are at z-index 200). */
export function IndiaBorders() {
  const [states, setStates] = useState<FeatureCollection | null>(null);
  useEffect(() => {
    let kept = true;
    loadBorders().then(
      (loaded) => kept && setStates(loaded),
      // Without the borders the map still shows its cars and positions.
      () => undefined,
    );
    return () => {
      kept = false;
    };
  }, []);
  return (
    <Pane name="india-states" style={{ zIndex: 150 }}>
      {states && (
        <GeoJSON data={states} interactive={false} style={{ className: 'india-state', weight: 1 }} />
      )}
    </Pane>
  );
}

/** Where a city's name lies from its dot: clear of a cluster's count drawn on it (about 7 px wide). */
const LABEL_OFFSET: Record<'bottom' | 'left' | 'right', [number, number]> = {
  bottom: [0, 4],
  left: [-10, 0],
  right: [10, 0],
};

/**
 * The major cities, named in the screen's language: the largest at every zoom, the others closer in,
 * and only those within the map's view or near it. Leaflet measures each name as it places it, a
 * layout of the page each time: a driver's map, a city wide, drew all 37 of India's names for the one
 * it shows (a third of a second of a phone's CPU). Their dots lie under what a map draws of its own
 * (the fleet's clusters and cars are drawn in the overlay pane, at z-index 400); their names above
 * it, under each dot, so that a cluster on a city hides neither its count nor the city's name.
 */
export function IndiaCities() {
  const [view, setView] = useState<{ zoom: number; bounds: LatLngBounds } | null>(null);
  const map = useMapEvents({
    moveend: () => setView({ zoom: map.getZoom(), bounds: map.getBounds() }),
  });
  const shown = view ?? { zoom: map.getZoom(), bounds: map.getBounds() };
  // Half a view more each way: a city whose name reaches into the view from beside it is named too.
  const near = shown.bounds.pad(0.5);
  const hindi = currentLanguage() === 'hi';
  return (
    <>
      <Pane name="india-city-labels" style={{ zIndex: 450, pointerEvents: 'none' }} />
      <Pane name="india-cities" style={{ zIndex: 350 }}>
        {INDIA_CITIES.filter(
          (city) => (city.major || shown.zoom >= 6) && near.contains([city.lat, city.long]),
        ).map((city) => (
          <CircleMarker
            key={city.en}
            center={[city.lat, city.long]}
            radius={3}
            interactive={false}
            pathOptions={{ className: 'india-city' }}
          >
            <Tooltip
              key={hindi ? city.hi : city.en}
              permanent
              direction={city.side ?? 'bottom'}
              offset={LABEL_OFFSET[city.side ?? 'bottom']}
              className="india-city-label"
              pane="india-city-labels"
              content={labelContent(hindi ? city.hi : city.en)}
            />
          </CircleMarker>
        ))}
      </Pane>
    </>
  );
}
