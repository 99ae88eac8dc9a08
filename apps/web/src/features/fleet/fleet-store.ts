import type { FleetDriver } from '@bmet/shared/schemas/fleet';

/** A car on the map: as the API answers it, with its report time in ms (NaN when not known). */
export type FleetCar = FleetDriver & {
  at: number;
  /** When this browser last heard of the car (a whole-fleet load keeps what arrived while it ran). */
  receivedAt: number;
};

/**
 * Every car of the map, outside React: thousands of cars move every few seconds, and a render per
 * move would swamp the page. The map and the lists read it when they redraw and subscribe to
 * hear that something changed.
 */
export class FleetStore {
  readonly cars = new Map<string, FleetCar>();
  /** Grows with every change: a reader can tell whether anything changed since it last looked. */
  version = 0;
  readonly #listeners = new Set<() => void>();

  /** New and moved cars; a position older than the one held is ignored (the map never jumps back). */
  upsert(list: readonly FleetDriver[]): void {
    const now = Date.now();
    let changed = false;
    for (const driver of list) changed = this.#put(driver, now) || changed;
    if (changed) this.#changed();
  }

  /** Cars that left the caller's scope or were deleted. */
  remove(ids: readonly string[]): void {
    let changed = false;
    for (const id of ids) changed = this.cars.delete(id) || changed;
    if (changed) this.#changed();
  }

  /**
   * The whole fleet as a load answered it: cars not in it are dropped, unless the stream brought
   * them after the load started (`startedAt`, ms since the epoch).
   */
  replace(list: readonly FleetDriver[], startedAt: number): void {
    const now = Date.now();
    const listed = new Set<string>();
    for (const driver of list) {
      listed.add(driver.id);
      this.#put(driver, now);
    }
    for (const [id, car] of this.cars)
      if (!listed.has(id) && car.receivedAt < startedAt) this.cars.delete(id);
    this.#changed();
  }

  /** The newest report time held (ms), or NaN with none: where a polling delta starts. */
  newestAt(): number {
    let newest = Number.NEGATIVE_INFINITY;
    for (const car of this.cars.values()) if (car.at > newest) newest = car.at;
    return newest === Number.NEGATIVE_INFINITY ? Number.NaN : newest;
  }

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #put(driver: FleetDriver, now: number): boolean {
    const at = driver.updatedAt ? Date.parse(driver.updatedAt) : Number.NaN;
    const held = this.cars.get(driver.id);
    // Same time: the details may still have changed (a driver moved to another franchise).
    if (held && !Number.isNaN(held.at) && !(at >= held.at)) return false;
    if (held) Object.assign(held, driver, { at, receivedAt: now });
    else this.cars.set(driver.id, { ...driver, at, receivedAt: now });
    return true;
  }

  #changed(): void {
    this.version++;
    for (const listener of this.#listeners) listener();
  }
}
