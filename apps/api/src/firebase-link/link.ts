import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import type { FirebaseLinkActivity } from '@bmet/shared/schemas/firebase-link';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { kindsOf, LINK_LEASE } from '../infra/firebase-link-state';
import type { ObjectStore } from '../infra/object-store';
import { DocumentImages } from './document-images';
import { createReport, formatReport, mergeReport, type ImportReport } from '../import/report';
import { describeError, LinkMonitor } from './link-monitor';
import { PositionBatches } from './position-batches';
import { pruneSentWrites, sendWaitingWrites } from './outbox';
import {
  applyRecords,
  FOLLOWED_SECTIONS,
  holdsAny,
  positionOf,
  storePositions,
  type FirebaseRecord,
  type FollowedSection,
} from './apply';
import type { Child } from './event-stream';
import { FirebaseRequestError, type FirebaseRestClient, type Query, type StreamEvent } from './rest-client';
import { absentKeys, isLookedFor, MOST_KEYS } from './absent';
import { tripsWindow, type TripsWindow } from './trips-window';
import { buildDeferredIndexes, deferIndexesOfEmpty, holdsDeferredIndexes } from '../db/deferred-indexes';

/**
 * The link that follows the company's Firebase Realtime Database as the apps write it: one stream
 * per followed node (rates, drivers, customers, trips). A stream's first event holds the whole node
 * (what changed while the console was away is in it); every event after it is applied as it comes.
 * A change inside a record (a driver accepting a trip writes `trips/{key}/driver_info`) re-reads that
 * record whole, so the import's mapping sees it as it would; a driver's new position is stored at
 * once, as a device report is, and published to the maps.
 *
 * One instance follows at a time: it holds a lease in the database, renewed every 10 s; when it dies,
 * another takes the lease once it expires (30 s) and catches up from the streams' first events.
 * Trips are followed from a key on (trips-window.ts), so that a reconnect reads again the trips
 * that may have changed, not a million finished ones; a record the console has that a first event
 * no longer holds was removed meanwhile, and is ended (absent.ts).
 * Any failure (the server unreachable, a stream closed mid-event, 401, `cancel`, `auth_revoked`)
 * closes every stream and opens them again after a backoff, with fresh credentials.
 */

export const LEASE_MS = 30_000;
const RENEW_MS = 10_000;
/** How often the holder writes what it does for the other instances, and takes re-read requests. */
const REPORT_MS = 2_000;
/** How often the outbox is looked at for writes to send. */
const SEND_MS = 1_000;
const BATCH = 500;
/** A large event's records are written this many at a time, and so many batches at once. */
const LARGE_BATCH = 1000;
const WRITES_AT_ONCE = 3;
/**
 * The tables a first sync of an empty console fills without their secondary indexes and foreign
 * keys, built once at the end (db/deferred-indexes.ts): at a million trips, maintaining two trigram
 * indexes, six others and a row lock on each trip's customer cost the database more than half of
 * its time per trip.
 */
const FILLED_WITHOUT_INDEXES: Partial<Record<FollowedSection, readonly string[]>> = {
  trips: ['trips', 'trip_messages'],
};
const MAX_BACKOFF_MS = 30_000;
/** Records changed inside (not replaced whole) are read again in groups, a few at a time. */
const REREAD_DELAY_MS = 50;
/** Records changed inside are read again this many at a time. */
const REREADS_AT_ONCE = 8;
/** Records a failure left unapplied are read again after this long. */
const RETRY_MS = 1000;

export type LinkLogger = {
  info: (object: object, message: string) => void;
  warn: (object: object, message: string) => void;
};

export type LinkStatus = FirebaseLinkActivity & { following: boolean };

class LeaseLost extends Error {}

export class FirebaseLink {
  private readonly holder = `${hostname()} ${process.pid} ${randomUUID().slice(0, 8)}`;
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private following = false;
  private readonly monitor = new LinkMonitor();
  /**
   * Records to apply, per section, with the time the first change of each arrived: a record put
   * whole carries its value; one changed inside is read again whole. The last event for a record
   * decides which, so they are applied in the order the events came.
   */
  private readonly stale = new Map<FollowedSection, Map<string, { arrived: number; value?: unknown }>>();
  private rereadTimer: NodeJS.Timeout | null = null;
  private rereading: Promise<void> = Promise.resolve();
  /** Per section, settled once its stream's first event is applied (trips wait for TRIPS_NEED). */
  private firstApplied = new Map<FollowedSection, ReturnType<typeof deferred>>();
  /** The server refused to stream a range of trips: they are followed whole. */
  private windowRefused = false;
  /** Per section, the keys its stream's first event holds, while it is read (null: not kept). */
  private readonly firstKeys = new Map<FollowedSection, { keys: Set<string> | null; whole: boolean }>();

  constructor(
    private readonly db: Db,
    private readonly client: FirebaseRestClient,
    private readonly options: {
      logger: LinkLogger;
      /** Writes the console queued are sent to Firebase (FIREBASE_WRITE_BACK). */
      writeBack?: boolean;
      /** Where document images the driver app uploads are stored, once fetched. */
      objectStore?: ObjectStore;
      publish?: (event: LocationEvent) => Promise<void>;
      /**
       * Indexes left out by a first sync are built without blocking the tables' writers
       * (PostgreSQL; the embedded database has one connection, and builds them as usual).
       */
      concurrentIndexes?: boolean;
      /** Called after each applied change (tests wait on it). */
      onApplied?: () => void;
    },
  ) {
    if (options.objectStore) {
      this.images = new DocumentImages(db, options.objectStore, client.address.origin, {
        stored: (count) => this.monitor.applied('documents', count, Date.now()),
        failed: (message) => {
          this.monitor.skipped();
          this.monitor.failed(message);
          options.logger.warn({}, `Firebase link: ${message}`);
        },
      });
    }
  }

  private readonly images: DocumentImages | null = null;
  /** The report of the streams' first events, until every section's is applied. */
  private sync: { report: ImportReport; pending: Set<FollowedSection>; started: number } | null = null;
  /** Drivers' new positions, stored a batch at a time. */
  private readonly pendingPositions = new PositionBatches((batch, arrived) =>
    this.positions(batch, arrived).catch((error: unknown) =>
      this.failed(error, 'those positions are replaced by the next ones'),
    ),
  );

  status(): LinkStatus {
    return { ...this.monitor.activity(), following: this.following };
  }

  start(): void {
    if (this.running) return;
    this.controller = new AbortController();
    this.running = this.run(this.controller.signal);
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    await this.running?.catch(() => undefined);
    await this.rereading.catch(() => undefined);
    await this.images?.stop();
    await this.pendingPositions.flush();
    this.running = null;
    if (this.following) await this.releaseLease().catch(() => undefined);
    this.following = false;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let backoff = 1000;
    while (!signal.aborted) {
      if (!(await this.takeLease().catch(() => false))) {
        this.following = false;
        await sleep(RENEW_MS, signal);
        continue;
      }
      this.following = true;
      // What an instance that died during a first sync left unbuilt.
      if (await holdsDeferredIndexes(this.db).catch(() => false)) await this.buildIndexes();
      const round = new AbortController();
      const stopRound = () => round.abort();
      signal.addEventListener('abort', stopRound, { once: true });
      const renewal = setInterval(() => {
        this.takeLease().then(
          (held) => {
            if (!held) round.abort(new LeaseLost('another instance holds the lease'));
          },
          () => round.abort(new LeaseLost('the lease could not be renewed')),
        );
      }, RENEW_MS);
      const started = Date.now();
      const chores = this.doChores(round.signal);
      try {
        await this.followAll(round.signal);
      } catch (error) {
        if (!signal.aborted) this.failed(error);
      } finally {
        clearInterval(renewal);
        signal.removeEventListener('abort', stopRound);
        round.abort();
        await chores;
        this.monitor.disconnected();
      }
      if (signal.aborted) return;
      if (round.signal.reason instanceof LeaseLost) this.following = false;
      await this.report().catch(() => undefined);
      // A link that ran a while starts its backoff afresh.
      if (Date.now() - started > 60_000) backoff = 1000;
      await sleep(backoff, signal);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
    }
  }

  private failed(error: unknown, what = 'reconnecting'): void {
    const message = describeError(error);
    this.monitor.failed(message);
    this.options.logger.warn({ err: error }, `Firebase link: ${message}; ${what}`);
  }

  /**
   * While the streams run: sends the outbox's writes (every second), and reports what the link
   * does and takes the re-reads admins asked for (every 2 s). A failure here never stops the streams.
   */
  private async doChores(signal: AbortSignal): Promise<void> {
    let lastReport = 0;
    let lastPrune = 0;
    while (!signal.aborted) {
      try {
        if (this.options.writeBack) {
          // Read again once written: a change someone made in Firebase while the console's write
          // was on its way was held back for it (outbox.ts), and is applied now if it came after.
          for (const path of await sendWaitingWrites(this.db, this.client)) {
            const [section, key] = path.split('/');
            if ((FOLLOWED_SECTIONS as readonly string[]).includes(section!) && key) {
              this.markStale(section as FollowedSection, key, Date.now());
            }
          }
        }
        if (Date.now() - lastPrune > 3_600_000) {
          await pruneSentWrites(this.db);
          lastPrune = Date.now();
        }
        if (Date.now() - lastReport >= REPORT_MS) {
          lastReport = Date.now();
          for (const kind of await this.report()) await this.reread(kind, signal);
        }
      } catch (error) {
        if (!signal.aborted) this.failed(error, 'trying again');
      }
      await sleep(SEND_MS, signal);
    }
  }

  /** Writes what the link does into its lease row, and answers the re-reads asked (taking them). */
  private async report(): Promise<FollowedSection[]> {
    const rows = rowsOf(
      await this.db.execute(sql`
        update firebase_link_lease as l set status = ${JSON.stringify(this.monitor.activity())}::jsonb,
          rereads = '{}'
        from (select name, rereads from firebase_link_lease
              where name = ${LINK_LEASE} and holder = ${this.holder} for update) as asked
        where l.name = asked.name
        returning asked.rereads`),
    );
    return kindsOf(rows[0]?.rereads);
  }

  /** Reads one kind of record whole again, in pages, and applies the differences. */
  private async reread(section: FollowedSection, signal: AbortSignal): Promise<void> {
    this.monitor.rereading(section);
    await this.report();
    let seen: Set<string> | null = isLookedFor(section) ? new Set() : null;
    try {
      for await (const page of this.client.pages(section, { signal })) {
        const arrived = Date.now();
        const readable = page.filter((record) => !record.tooLarge);
        this.monitor.skipped(page.length - readable.length);
        await this.apply(section, readable, arrived, { live: false });
        for (const { key } of page) seen?.add(key);
        if (seen && seen.size > MOST_KEYS) seen = null;
      }
      // Asked for by an admin, and read whole: what Firebase no longer holds is ended.
      if (seen && isLookedFor(section) && !signal.aborted) {
        const absent = await absentKeys(this.db, section, seen, null, { hold: false });
        if ('keys' in absent) await this.endKeys(section, absent.keys);
      }
      this.options.logger.info({ section }, 'Firebase link: read again whole');
    } finally {
      this.monitor.rereading(null);
    }
  }

  /** Follows every section until one stream ends or fails: then all are closed, to be opened again. */
  private async followAll(signal: AbortSignal): Promise<void> {
    const round = new AbortController();
    const both = AbortSignal.any([signal, round.signal]);
    this.monitor.connected();
    this.sync = { report: createReport(false), pending: new Set(FOLLOWED_SECTIONS), started: Date.now() };
    this.firstApplied = new Map(FOLLOWED_SECTIONS.map((section) => [section, deferred()]));
    try {
      await Promise.race(FOLLOWED_SECTIONS.map((section) => this.follow(section, both)));
    } finally {
      round.abort();
    }
  }

  private async follow(section: FollowedSection, signal: AbortSignal): Promise<void> {
    // A trip names its customer and driver: those are brought in first, or a first start would
    // keep trips without them.
    const needs = TRIPS_NEED.map((other) => this.firstApplied.get(other)?.promise);
    if (section === 'trips') await Promise.race([Promise.all(needs), aborted(signal)]);
    if (signal.aborted) return;
    const window = section === 'trips' && !this.windowRefused ? await tripsWindow(this.db) : null;
    const query: Query = window ? { orderBy: '$key', startAt: window.start } : {};
    // Unfiltered trips (a first start) are too many to keep the keys of; they are all new anyway.
    const keepKeys = isLookedFor(section) && (section !== 'trips' || window !== null);
    this.firstKeys.set(section, { keys: keepKeys ? new Set() : null, whole: true });
    let first = true;
    let heard = false;
    try {
      for await (const event of this.client.follow(section, signal, query)) {
        heard = true;
        this.monitor.received();
        await this.handle(section, event, Date.now());
        if (first && event.event !== 'keep-alive') {
          first = false;
          await this.endAbsent(section, window);
          this.firstApplied.get(section)?.resolve();
          this.caughtUp(section);
        }
      }
    } catch (error) {
      if (window && !heard && error instanceof FirebaseRequestError && error.status === 400) {
        // A server that streams no range of keys: trips are followed whole, as a first start does.
        this.windowRefused = true;
        this.failed(error, 'following every trip instead of the recent ones');
        return this.follow(section, signal);
      }
      throw error;
    } finally {
      this.firstKeys.delete(section);
    }
    if (!signal.aborted) throw new Error(`the server closed the stream of ${section}`);
  }

  /** Notes a key the first event of a section holds (no more than MOST_KEYS are kept). */
  private seenFirst(section: FollowedSection, key: string): void {
    const first = this.firstKeys.get(section);
    if (!first?.keys) return;
    first.keys.add(key);
    if (first.keys.size > MOST_KEYS) first.keys = null;
  }

  /** After a section's first event: what the console holds and Firebase no longer does is ended. */
  private async endAbsent(section: FollowedSection, window: TripsWindow | null): Promise<void> {
    const first = this.firstKeys.get(section);
    this.firstKeys.delete(section);
    if (!first?.keys || !first.whole || !isLookedFor(section)) return;
    const absent = await absentKeys(this.db, section, first.keys, window);
    if ('held' in absent) {
      this.monitor.failed(
        `${absent.held} of ${absent.of} ${section} records are not in Firebase: none was ended, in case the database is the wrong one; re-read them to end them`,
      );
      this.options.logger.warn(absent, `Firebase link: ${section} records missing from Firebase were kept`);
      return;
    }
    await this.endKeys(section, absent.keys);
  }

  private async endKeys(section: FollowedSection, keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += BATCH) {
      const gone = keys.slice(i, i + BATCH).map((key) => ({ key, value: null }));
      await this.apply(section, gone, Date.now());
    }
  }

  private async handle(section: FollowedSection, event: StreamEvent, arrived: number): Promise<void> {
    switch (event.event) {
      case 'keep-alive':
        return;
      case 'malformed':
        this.monitor.skipped();
        this.options.logger.warn(
          { section, event: event.name },
          'Firebase link: an event it cannot read, skipped',
        );
        return;
      case 'cancel':
      case 'auth_revoked':
        this.client.refreshCredentials();
        throw new Error(`the server sent ${event.event} on ${section} (${JSON.stringify(event.reason)})`);
      case 'put':
      case 'patch':
        if ('children' in event) return this.changeLarge(section, event.event, event.path, event.children);
        return this.change(section, event.event, event.path, event.data, arrived);
    }
  }

  /**
   * A put or patch too large to hold (a stream's first event on a large node): its records are
   * applied in batches as they are read, a few batches written at once (each its own transaction;
   * the children of one event have distinct keys), so memory stays flat and the database is kept
   * busy while the next batch is read. A large change inside one record has that record read again
   * whole. A damaged event is skipped and counted; the link goes on.
   */
  private async changeLarge(
    section: FollowedSection,
    kind: 'put' | 'patch',
    path: string,
    children: AsyncIterable<Child>,
  ): Promise<void> {
    const [key] = path.split('/').filter(Boolean);
    const live = kind === 'patch';
    const known = live || key !== undefined || (await holdsAny(this.db, section));
    const tables = FILLED_WITHOUT_INDEXES[section];
    const withoutIndexes =
      !known && kind === 'put' && tables !== undefined && (await deferIndexesOfEmpty(this.db, tables));
    const writing = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    const write = async (records: FirebaseRecord[], arrived: number) => {
      const written: Promise<void> = this.apply(section, records, arrived, { live, known })
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => writing.delete(written));
      writing.add(written);
      if (writing.size >= WRITES_AT_ONCE) await Promise.race(writing);
      if (failure) throw failure.error;
    };
    let batch: FirebaseRecord[] = [];
    let arrived = Date.now();
    try {
      for await (const child of children) {
        if (key !== undefined) continue;
        if (kind === 'put') this.seenFirst(section, child.key);
        if (kind === 'patch' && child.key.includes('/')) {
          this.markStale(section, child.key.split('/')[0]!, Date.now());
          continue;
        }
        batch.push(child);
        if (batch.length >= LARGE_BATCH) {
          await write(batch, arrived);
          batch = [];
          arrived = Date.now();
        }
      }
      if (batch.length > 0) await write(batch, arrived);
      batch = [];
      await Promise.all(writing);
      if (failure) throw (failure as { error: unknown }).error;
    } catch (error) {
      await Promise.all(writing);
      const first = this.firstKeys.get(section);
      if (first) first.whole = false;
      this.monitor.skipped();
      this.failed(error, `the rest of a large ${kind} on ${section} is skipped`);
      // What was read whole before the damage is kept.
      if (batch.length > 0 && !failure) await this.apply(section, batch, arrived, { live });
    }
    if (withoutIndexes) await this.buildIndexes();
    if (key !== undefined) this.markStale(section, key, arrived);
  }

  /** Builds the indexes a first sync left out (or an instance that died during one), and says so. */
  private async buildIndexes(): Promise<void> {
    this.monitor.buildingIndexes(true);
    await this.report().catch(() => undefined);
    const started = Date.now();
    try {
      const { built, failed } = await buildDeferredIndexes(this.db, {
        concurrently: this.options.concurrentIndexes,
      });
      for (const { name, message } of failed) this.failed(new Error(message), `${name} is left unbuilt`);
      this.options.logger.info(
        { built, seconds: (Date.now() - started) / 1000 },
        'Firebase link: indexes built after a first sync',
      );
    } catch (error) {
      this.failed(error, 'the indexes are built at the next start');
    } finally {
      this.monitor.buildingIndexes(false);
    }
  }

  /**
   * A put or patch at a path relative to the section. At "/" a put holds the whole section (the
   * stream's first event) and a patch some of its records whole; deeper, the path names a record
   * and perhaps a place inside it.
   */
  private async change(
    section: FollowedSection,
    kind: 'put' | 'patch',
    path: string,
    data: unknown,
    arrived: number,
  ) {
    const [key, ...inside] = path.split('/').filter(Boolean);
    if (key === undefined) {
      const entries = data && typeof data === 'object' ? Object.entries(data as Record<string, unknown>) : [];
      const whole: FirebaseRecord[] = [];
      for (const [child, value] of entries) {
        // A patch may name places inside records ("t1/status"): those records are read again.
        if (kind === 'patch' && child.includes('/')) this.markStale(section, child.split('/')[0]!, arrived);
        else whole.push({ key: child, value });
        if (kind === 'put') this.seenFirst(section, child);
      }
      // A put at "/" is the whole node (a stream's first event): what it brings is not live news.
      for (let i = 0; i < whole.length; i += BATCH) {
        await this.apply(section, whole.slice(i, i + BATCH), arrived, { live: kind === 'patch' });
      }
      return;
    }
    // A record put whole (a new booking) is applied with the others that came meanwhile, in one
    // transaction: one at a time, fifty bookings a second with their updates outran the database.
    if (inside.length === 0 && kind === 'put') return this.markStale(section, key, arrived, { value: data });
    if (section === 'driver' && inside[0] === 'position') {
      const position = inside.length === 1 && kind === 'put' ? positionOf(data) : null;
      if (position) return this.pendingPositions.add(key, position, arrived);
    }
    this.markStale(section, key, arrived);
  }

  private async apply(
    section: FollowedSection,
    records: FirebaseRecord[],
    arrived: number,
    { live = true, known = true }: { live?: boolean; known?: boolean } = {},
  ): Promise<void> {
    const { report, removed } = await applyRecords(this.db, section, records, { live, known });
    if (!live && this.sync?.pending.has(section)) mergeReport(this.sync.report, report);
    for (const [kind, counts] of Object.entries(report.counts)) {
      this.monitor.applied(kind, counts.new + counts.updated + counts.unchanged, arrived);
      this.monitor.skipped(counts.skipped);
    }
    this.monitor.applied('removed', removed, arrived);
    const present = records.filter((record) => record.value !== null);
    if (section === 'driver') await this.images?.notice(present);
    if (section === 'driver') {
      // The positions a driver record holds are the drivers' newest: they reach the maps too.
      const positions = present.flatMap(({ key, value }) => {
        const position = positionOf((value as { position?: unknown } | null)?.position);
        return position ? [{ key, ...position }] : [];
      });
      await this.positions(positions, arrived, { quiet: true });
    }
    this.options.onApplied?.();
  }

  private async positions(
    positions: { key: string; lat: number; long: number }[],
    arrived: number,
    { quiet = false }: { quiet?: boolean } = {},
  ): Promise<void> {
    if (positions.length === 0) return;
    const events = await storePositions(this.db, positions);
    if (!quiet) this.monitor.positions(events.length, arrived);
    for (const event of events) {
      this.options.publish?.(event).catch((error: unknown) => {
        this.options.logger.warn({ err: error }, 'Firebase link: could not publish a driver position');
      });
    }
    if (!quiet) this.options.onApplied?.();
  }

  /**
   * A section's first event is applied: once every section's is, the link has caught up with the
   * database (a first start brings the whole tree in; a reconnect, what changed meanwhile), and it
   * says so with the import's report.
   */
  private caughtUp(section: FollowedSection): void {
    const sync = this.sync;
    if (!sync) return;
    sync.pending.delete(section);
    if (sync.pending.size > 0) return;
    this.sync = null;
    sync.report.seconds = (Date.now() - sync.started) / 1000;
    // The notes (records skipped, repaired or listed) of a whole database can be many: a few of each.
    const shown = { ...sync.report, notes: [] as typeof sync.report.notes };
    for (const action of ['skipped', 'repaired', 'listed'] as const) {
      shown.notes.push(...sync.report.notes.filter((entry) => entry.action === action).slice(0, 20));
    }
    const more = sync.report.notes.length - shown.notes.length;
    this.options.logger.info(
      { counts: sync.report.counts, notes: sync.report.notes.length },
      `Firebase link: caught up with the apps' database\n${formatReport(shown).replace('Import finished.', 'What it brought in or changed:')}` +
        (more > 0 ? `\n(${more} more notes)` : ''),
    );
  }

  /** Queues a record to apply: with `value`, as it is; without, read again whole. */
  private markStale(
    section: FollowedSection,
    key: string,
    arrived: number,
    put?: { value: unknown },
    delayMs = REREAD_DELAY_MS,
  ): void {
    let keys = this.stale.get(section);
    if (!keys) this.stale.set(section, (keys = new Map()));
    keys.set(key, { arrived: keys.get(key)?.arrived ?? arrived, ...put });
    if (this.rereadTimer) return;
    this.rereadTimer = setTimeout(() => {
      this.rereadTimer = null;
      this.rereading = this.rereading
        .then(() => this.rereadStale())
        .catch((error: unknown) => {
          if (!this.controller?.signal.aborted)
            this.failed(error, 'the change will be read at the next reconnect');
        });
    }, delayMs);
  }

  /**
   * Applies the records queued: those changed inside are read whole first, a few reads at a time;
   * then all of a section's go in batches, one transaction each. Those a failure left unapplied
   * are read again a second later (a stop ends it: the next start reads them).
   */
  private async rereadStale(): Promise<void> {
    const work = [...this.stale.entries()];
    this.stale.clear();
    const signal = this.controller?.signal;
    for (const [section, keys] of work) {
      const entries = [...keys];
      let done = 0;
      try {
        const records: FirebaseRecord[] = [];
        for (let i = 0; i < entries.length && !signal?.aborted; i += REREADS_AT_ONCE) {
          records.push(
            ...(await Promise.all(
              entries.slice(i, i + REREADS_AT_ONCE).map(async ([key, queued]) => ({
                key,
                value:
                  'value' in queued ? queued.value : await this.client.get(`${section}/${key}`, {}, signal),
              })),
            )),
          );
        }
        for (; done < records.length && !signal?.aborted; done += BATCH) {
          const batch = entries.slice(done, done + BATCH);
          const arrived = Math.min(...batch.map(([, queued]) => queued.arrived));
          await this.apply(section, records.slice(done, done + BATCH), arrived);
        }
      } catch (error) {
        if (signal?.aborted) return;
        // Read whole again, unless a newer event for the record came meanwhile.
        for (const [key, { arrived }] of entries.slice(done)) {
          if (!this.stale.get(section)?.has(key)) this.markStale(section, key, arrived, undefined, RETRY_MS);
        }
        this.failed(error, `reading those ${section} again in a second`);
      }
    }
  }

  /** Takes or renews the lease; false when another live instance holds it. */
  private async takeLease(): Promise<boolean> {
    const until = new Date(Date.now() + LEASE_MS).toISOString();
    const rows = rowsOf(
      await this.db.execute(sql`
        insert into firebase_link_lease as l (name, holder, expires_at)
        values (${LINK_LEASE}, ${this.holder}, ${until}::timestamptz)
        on conflict (name) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where l.holder = excluded.holder or l.expires_at < now()
        returning l.holder`),
    );
    return rows.length > 0;
  }

  private async releaseLease(): Promise<void> {
    await this.db.execute(
      sql`delete from firebase_link_lease where name = ${LINK_LEASE} and holder = ${this.holder}`,
    );
  }
}

/** The sections whose first events are applied before the trips' is read. */
const TRIPS_NEED: FollowedSection[] = ['driver', 'customer'];

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
