import { describe, expect, it, vi } from 'vitest';
import type { FleetDriver } from '@bmet/shared/schemas/fleet';
import { FleetStore } from './fleet-store';
import { carFilter, IN_VIEW_LIMIT, summarize } from './fleet-view';

const car = (id: string, overrides: Partial<FleetDriver> = {}): FleetDriver => ({
  id,
  name: `Driver ${id}`,
  lat: 19,
  long: 72.8,
  updatedAt: '2026-11-24T10:00:00.000Z',
  carType: 'sedan',
  franchiseId: 'f1',
  ...overrides,
});

describe('FleetStore', () => {
  it('keeps the newer position of a car and tells its readers once per change', () => {
    const store = new FleetStore();
    let heard = 0;
    store.subscribe(() => heard++);
    store.upsert([car('a', { lat: 19.1, updatedAt: '2026-11-24T10:00:05.000Z' })]);
    store.upsert([car('a', { lat: 18, updatedAt: '2026-11-24T10:00:01.000Z' })]);
    expect(store.cars.get('a')).toMatchObject({ lat: 19.1 });
    // Same time, other details (moved to another franchise): taken.
    store.upsert([car('a', { lat: 19.1, updatedAt: '2026-11-24T10:00:05.000Z', franchiseId: 'f2' })]);
    expect(store.cars.get('a')).toMatchObject({ franchiseId: 'f2' });
    expect(heard).toBe(2);
  });

  it('drops on a whole-fleet load the cars not in it, but not those pushed while it ran', () => {
    const store = new FleetStore();
    vi.useFakeTimers({ now: Date.parse('2026-11-24T10:00:00.000Z') });
    store.upsert([car('old')]);
    vi.advanceTimersByTime(1000);
    const startedAt = Date.now();
    vi.advanceTimersByTime(200);
    store.upsert([car('pushed')]);
    vi.useRealTimers();
    store.replace([car('listed')], startedAt);
    expect([...store.cars.keys()].sort()).toEqual(['listed', 'pushed']);
    store.remove(['pushed']);
    expect([...store.cars.keys()]).toEqual(['listed']);
  });

  it('knows the newest report time, and none without one', () => {
    const store = new FleetStore();
    expect(store.newestAt()).toBeNaN();
    store.upsert([
      car('a', { updatedAt: null }),
      car('b'),
      car('c', { updatedAt: '2026-11-24T11:00:00.000Z' }),
    ]);
    expect(store.newestAt()).toBe(Date.parse('2026-11-24T11:00:00.000Z'));
  });
});

describe('summarize', () => {
  it('counts the cars the filters let through and names the first in view by name', () => {
    const store = new FleetStore();
    const now = Date.parse('2026-11-24T10:01:00.000Z');
    const many = Array.from({ length: IN_VIEW_LIMIT + 50 }, (_, i) =>
      car(`c${i}`, { name: `N${String(1000 - i).padStart(4, '0')}` }),
    );
    store.upsert([...many, car('far', { lat: 28.6 }), car('auto', { carType: 'auto', updatedAt: null })]);
    const view = { south: 18, west: 72, north: 20, east: 74 };

    const all = summarize(store, carFilter({ carType: null, franchiseId: null, freshness: null }), view, now);
    expect(all.total).toBe(IN_VIEW_LIMIT + 52);
    expect(all.counts).toEqual({ live: IN_VIEW_LIMIT + 51, stale: 0, offline: 0, unknown: 1 });
    expect(all.inViewCount).toBe(IN_VIEW_LIMIT + 51);
    const names = all.inView.map((c) => c.name);
    expect(names).toHaveLength(IN_VIEW_LIMIT);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe('Driver auto');

    const autos = summarize(
      store,
      carFilter({ carType: 'auto', franchiseId: null, freshness: null }),
      view,
      now,
    );
    expect(autos).toMatchObject({ shown: 1, inViewCount: 1 });
  });
});
