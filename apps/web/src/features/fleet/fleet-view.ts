import { useEffect, useState } from 'react';
import type { CarType } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { formatAge } from '../../components/time-ago';
import type { FleetCar, FleetStore } from './fleet-store';
import { FRESHNESS, freshnessLabel, freshnessOf, type Freshness } from '../../lib/freshness';

/** The part of the world the map shows. */
export type ViewBounds = { south: number; west: number; north: number; east: number };

export type FleetFilter = {
  carType: CarType | null;
  franchiseId: string | null;
  freshness: Freshness | null;
};

/** The cars a filter lets through. */
export function carFilter({ carType, franchiseId, freshness }: FleetFilter) {
  return (car: FleetCar, now: number) =>
    (!carType || car.carType === carType) &&
    (!franchiseId || car.franchiseId === franchiseId) &&
    (!freshness || freshnessOf(car.at, now) === freshness);
}

/** What a car is and how fresh its position is, in words: "Asha Rao · Sedan · Live · just now". */
export function carSummary(car: FleetCar, now: number, withName = true): string {
  const parts = [
    car.carType ? carTypeLabel(car.carType) : m.fleetCarTypeUnknown(),
    freshnessLabel(freshnessOf(car.at, now)),
    Number.isNaN(car.at) ? m.fleetNoTime() : formatAge(new Date(car.at), new Date(now)),
  ];
  return (withName ? [car.name, ...parts] : parts).join(' · ');
}

export type FleetSummary = {
  /** Cars held, and those the filters let through. */
  total: number;
  shown: number;
  /** Shown cars per freshness. */
  counts: Record<Freshness, number>;
  /** Shown cars in view, by name, at most IN_VIEW_LIMIT of them; and how many there are. */
  inView: FleetCar[];
  inViewCount: number;
  /** When the figures were taken (ms since the epoch). */
  now: number;
};

/** The side list names at most this many cars; beyond, it asks to zoom in. */
export const IN_VIEW_LIMIT = 100;
/** The figures follow the cars at most once a second: thousands of moves a second need no more. */
const SUMMARY_EVERY_MS = 1000;
const AGE_EVERY_MS = 15_000;

export function summarize(
  store: FleetStore,
  filter: (car: FleetCar, now: number) => boolean,
  view: ViewBounds | null,
  now: number,
): FleetSummary {
  const counts = Object.fromEntries(FRESHNESS.map((f) => [f, 0])) as Record<Freshness, number>;
  // The first IN_VIEW_LIMIT by name, kept sorted as the cars go by: sorting every car in view (all
  // of them, zoomed out) each second would take the main thread for a tenth of a second.
  const first: FleetCar[] = [];
  let inViewCount = 0;
  let shown = 0;
  for (const car of store.cars.values()) {
    if (!filter(car, now)) continue;
    shown++;
    counts[freshnessOf(car.at, now)]++;
    if (
      !view ||
      car.lat < view.south ||
      car.lat > view.north ||
      car.long < view.west ||
      car.long > view.east
    ) {
      continue;
    }
    inViewCount++;
    if (first.length === IN_VIEW_LIMIT && !(car.name < first[IN_VIEW_LIMIT - 1]!.name)) continue;
    first.splice(insertionPoint(first, car.name), 0, car);
    if (first.length > IN_VIEW_LIMIT) first.pop();
  }
  return { total: store.cars.size, shown, counts, inView: first, inViewCount, now };
}

/** Where a name goes in a list sorted by name (after its equals). */
function insertionPoint(sorted: FleetCar[], name: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]!.name <= name) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The summary of the store, kept current a second at a time. */
export function useFleetSummary(
  store: FleetStore,
  filter: (car: FleetCar, now: number) => boolean,
  view: ViewBounds | null,
): FleetSummary {
  const [summary, setSummary] = useState(() => summarize(store, filter, view, Date.now()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const update = () => {
      timer = undefined;
      last = performance.now();
      setSummary(summarize(store, filter, view, Date.now()));
    };
    const schedule = () => {
      timer ??= setTimeout(update, Math.max(0, last + SUMMARY_EVERY_MS - performance.now()));
    };
    update();
    const unsubscribe = store.subscribe(schedule);
    const ageing = setInterval(schedule, AGE_EVERY_MS);
    return () => {
      unsubscribe();
      clearTimeout(timer);
      clearInterval(ageing);
    };
  }, [store, filter, view]);
  return summary;
}
