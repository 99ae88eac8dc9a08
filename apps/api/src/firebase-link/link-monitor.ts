import { FirebaseRequestError } from './rest-client';
import {
  idleLinkActivity,
  type FirebaseLinkActivity,
  type FirebaseLinkKind,
} from '@bmet/shared/schemas/firebase-link';

const MINUTE_MS = 60_000;

/**
 * What the following instance has done, as the admin screen and /metrics show it: counts since it
 * started, and over the last minute the changes applied and the longest wait of one.
 */
export class LinkMonitor {
  private readonly figures: FirebaseLinkActivity = idleLinkActivity();
  /** Applied changes of the last minute: when, how many, and how long the oldest had waited. */
  private recent: { at: number; count: number; waitedMs: number }[] = [];

  connected(): void {
    this.figures.connectedSince = new Date().toISOString();
  }

  disconnected(): void {
    this.figures.connectedSince = null;
    this.figures.reconnects += 1;
  }

  received(): void {
    this.figures.lastEventAt = new Date().toISOString();
  }

  rereading(kind: FirebaseLinkKind | null): void {
    this.figures.rereading = kind;
  }

  buildingIndexes(building: boolean): void {
    this.figures.buildingIndexes = building;
  }

  /** Changes applied, with the time the oldest of them arrived. */
  applied(kind: string | null, count: number, arrivedAt: number): void {
    if (count <= 0) return;
    if (kind) this.figures.applied[kind] = (this.figures.applied[kind] ?? 0) + count;
    const now = Date.now();
    this.recent.push({ at: now, count, waitedMs: now - arrivedAt });
  }

  positions(count: number, arrivedAt: number): void {
    this.figures.positions += count;
    this.applied(null, count, arrivedAt);
  }

  skipped(count = 1): void {
    this.figures.skipped += count;
  }

  failed(message: string): void {
    this.figures.lastErrors = [{ at: new Date().toISOString(), message }, ...this.figures.lastErrors].slice(
      0,
      10,
    );
  }

  /** The figures now, the last minute's worked out afresh. */
  activity(): FirebaseLinkActivity {
    const since = Date.now() - MINUTE_MS;
    this.recent = this.recent.filter((entry) => entry.at > since);
    const lag = this.recent.reduce((most, entry) => Math.max(most, entry.waitedMs), -1);
    return structuredClone({
      ...this.figures,
      eventsPerMinute: this.recent.reduce((sum, entry) => sum + entry.count, 0),
      lagSeconds: lag < 0 ? null : Math.round(lag) / 1000,
    });
  }
}

/** A failure as an admin reads it on the link's screen. */
export function describeError(error: unknown): string {
  if (error instanceof FirebaseRequestError && error.status > 0) {
    return `Firebase answered ${error.status}: ${error.message}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  // What Node's fetch says of a connection cut or refused, in words.
  if (message === 'terminated') return 'the connection to Firebase was cut';
  if (message === 'fetch failed') {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return `Firebase could not be reached${cause ? ` (${cause})` : ''}`;
  }
  return message;
}
