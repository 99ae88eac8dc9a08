/** A driver's position as the driver app writes it, by the driver's Firebase key. */
export type KeyedPosition = { key: string; lat: number; long: number };

/** Positions that come within this time are stored together. */
const BATCH_MS = 20;

/**
 * Drivers' new positions, stored together (at the apps' peak, 2,000 a second): those that come
 * while a batch is written, or within 20 ms, make the next batch, and a driver's newest replaces
 * one not stored yet. The stream goes on reading while a batch is written.
 */
export class PositionBatches {
  private readonly pending = new Map<string, { lat: number; long: number }>();
  /** When the oldest position waiting arrived. */
  private since = 0;
  private timer: NodeJS.Timeout | null = null;
  private storing: Promise<void> | null = null;

  constructor(private readonly store: (batch: KeyedPosition[], arrived: number) => Promise<void>) {}

  add(key: string, position: { lat: number; long: number }, arrived: number): void {
    if (this.pending.size === 0) this.since = arrived;
    this.pending.set(key, position);
    if (!this.storing && !this.timer) this.timer = setTimeout(() => void this.flush(), BATCH_MS);
  }

  /** Stores what waits now, and answers once every batch is stored. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.storing) return this.storing;
    this.storing = (async () => {
      try {
        while (this.pending.size > 0) {
          const batch = [...this.pending].map(([key, position]) => ({ key, ...position }));
          const arrived = this.since;
          this.pending.clear();
          await this.store(batch, arrived);
        }
      } finally {
        this.storing = null;
      }
    })();
    return this.storing;
  }
}
