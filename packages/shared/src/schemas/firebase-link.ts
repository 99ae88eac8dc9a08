import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { FIREBASE_LINK_KINDS } from '../firebase-link-kinds';
import { envelope } from './common';

export type { FirebaseLinkKind } from '../firebase-link-kinds';

/** What the instance that follows the apps' database is doing (it writes this every 2 s). */
export const firebaseLinkActivitySchema = z.object({
  connectedSince: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  /** Changes applied in the last minute (positions included). */
  eventsPerMinute: z.number(),
  /** The longest a change waited, from its arrival to being applied, in the last minute. */
  lagSeconds: z.number().nullable(),
  /** Records applied (written or found unchanged) per kind, since the instance started following. */
  applied: z.record(z.string(), z.number()),
  positions: z.number(),
  skipped: z.number(),
  reconnects: z.number(),
  /** The kind being read again now, at an admin's request. */
  rereading: z.enum(FIREBASE_LINK_KINDS).nullable(),
  /**
   * The indexes left out while a first sync filled an empty console are being built: searches and
   * sorted lists are slow until they are.
   */
  buildingIndexes: z.boolean(),
  lastErrors: z.array(z.object({ at: z.string(), message: z.string() })),
});
export type FirebaseLinkActivity = z.infer<typeof firebaseLinkActivitySchema>;

/** The activity of a link that has done nothing yet (or that no instance follows). */
export const idleLinkActivity = (): FirebaseLinkActivity => ({
  connectedSince: null,
  lastEventAt: null,
  eventsPerMinute: 0,
  lagSeconds: null,
  applied: {},
  positions: 0,
  skipped: 0,
  reconnects: 0,
  rereading: null,
  buildingIndexes: false,
  lastErrors: [],
});

/** What the Firebase link (the console following the apps' database) is doing, as an admin reads it. */
export const firebaseLinkStatusSchema = firebaseLinkActivitySchema.extend({
  /** An instance follows the database now (one does at a time). */
  following: z.boolean(),
  /** Which instance: host, process and a random tag. */
  holder: z.string().nullable(),
  /** Changes made here are written to Firebase (FIREBASE_WRITE_BACK). */
  writeBack: z.boolean(),
  /** The writes waiting for Firebase. */
  outbox: z.object({
    waiting: z.number(),
    oldestWaitingAt: z.string().nullable(),
    /** Waiting writes that failed at least once (tried again with backoff). */
    failing: z.number(),
    lastError: z.string().nullable(),
  }),
  /** Kinds an admin asked to re-read, not yet begun. */
  rereadsAsked: z.array(z.enum(FIREBASE_LINK_KINDS)),
});
export type FirebaseLinkStatus = z.infer<typeof firebaseLinkStatusSchema>;

/** GET /api/firebase-link: null when FIREBASE_DATABASE_URL is not set. */
export const firebaseLinkResponseSchema = envelope(firebaseLinkStatusSchema.nullable());

/** POST /api/firebase-link/reread: read one kind of record again, whole, from Firebase. */
export const firebaseLinkRereadBodySchema = z.object({
  kind: z.enum(FIREBASE_LINK_KINDS, { error: () => m.firebaseLinkChooseKind() }),
});
export type FirebaseLinkRereadBody = z.infer<typeof firebaseLinkRereadBodySchema>;
