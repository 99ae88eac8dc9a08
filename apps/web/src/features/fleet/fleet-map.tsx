import './fleet-map.css';
import { Anchor, Stack, Text } from '@mantine/core';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Popup, useMap } from 'react-leaflet';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { BaseMap } from '../../components/base-map';
import { FleetLayer, type FleetLayerOptions } from './fleet-layer';
import type { FleetCar, FleetStore } from './fleet-store';
import { carSummary, type ViewBounds } from './fleet-view';

/** Where the map starts before any car is known: India. */
const INDIA: [number, number] = [22.5, 79];
const INDIA_ZOOM = 5;
/** A car found by a search is shown this close. */
const FOCUS_ZOOM = 16;

export type FleetMapProps = {
  store: FleetStore;
  filter: FleetLayerOptions['filter'];
  /** The car to fly to and ring (a new object each time, so that the same car can be asked again). */
  focus: { id: string } | null;
  onCloseFocus: () => void;
  onOpen: (car: FleetCar) => void;
  /** The part of the world in view, after each move. */
  onView: (view: ViewBounds) => void;
};

/** The fleet on a Leaflet map; loaded only with the fleet screen. Works without tiles. */
export function FleetMap(props: FleetMapProps) {
  return (
    <BaseMap
      center={INDIA}
      zoom={INDIA_ZOOM}
      className="fleet-map"
      style={{ height: '100%', width: '100%' }}
      label={m.fleetMapLabel()}
      worldCopyJump={false}
    >
      <Cars {...props} />
    </BaseMap>
  );
}

function Cars({ store, filter, focus, onCloseFocus, onOpen, onView }: FleetMapProps) {
  const map = useMap();
  const [layer] = useState(
    () =>
      new FleetLayer({
        store,
        filter,
        onOpen,
        describeCar: (car, now) => carSummary(car, now),
        describeCluster: (count) => m.fleetClusterTitle({ count }),
      }),
  );
  useEffect(() => layer.setOnOpen(onOpen), [layer, onOpen]);

  useEffect(() => {
    layer.addTo(map);
    return () => {
      layer.remove();
    };
  }, [layer, map]);

  useEffect(() => layer.setFilter(filter), [layer, filter]);

  // The first cars to arrive frame the map (later ones do not move it under the user).
  useEffect(() => {
    let framed = false;
    const frame = () => {
      if (framed || store.cars.size === 0) return;
      framed = true;
      const bounds = [...store.cars.values()].map((car) => [car.lat, car.long] as [number, number]);
      map.fitBounds(bounds, { padding: [24, 24], maxZoom: 13, animate: false });
    };
    frame();
    return store.subscribe(frame);
  }, [map, store]);

  useEffect(() => {
    const report = () => {
      const b = map.getBounds();
      onView({ south: b.getSouth(), west: b.getWest(), north: b.getNorth(), east: b.getEast() });
    };
    report();
    map.on('moveend', report);
    return () => {
      map.off('moveend', report);
    };
  }, [map, onView]);

  useEffect(() => {
    layer.setHighlight(focus?.id ?? null);
    const car = focus ? store.cars.get(focus.id) : undefined;
    if (car) map.flyTo([car.lat, car.long], Math.max(map.getZoom(), FOCUS_ZOOM), { duration: 0.8 });
  }, [focus, layer, map, store]);

  return focus ? <FocusCard store={store} id={focus.id} onClose={onCloseFocus} /> : null;
}

/** Follows one car of the store: re-rendered when it moves, not when others do. */
function useCar(store: FleetStore, id: string): FleetCar | undefined {
  const car = store.cars.get(id);
  const signature = useSyncExternalStore(
    (listener) => store.subscribe(listener),
    () => {
      const now = store.cars.get(id);
      return now ? `${now.lat},${now.long},${now.updatedAt},${now.name}` : '';
    },
  );
  return signature ? car : undefined;
}

/** The card of the car a search found, following it as it moves. */
function FocusCard({ store, id, onClose }: { store: FleetStore; id: string; onClose: () => void }) {
  const car = useCar(store, id);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!car) return null;
  return (
    <Popup
      position={[car.lat, car.long]}
      offset={[0, -10]}
      autoPan={false}
      closeButton
      eventHandlers={{ remove: onClose }}
    >
      <Stack gap={2} data-testid="fleet-focus">
        <Text fw={600} size="sm">
          {car.name}
        </Text>
        <Text size="xs" data-testid="fleet-focus-status">
          {carSummary(car, now, false)}
        </Text>
        <Anchor component={Link} to={`/drivers/${car.id}`} size="sm">
          {m.fleetOpenDashboard()}
        </Anchor>
      </Stack>
    </Popup>
  );
}
