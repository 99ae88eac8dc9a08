import { z } from 'zod';
import { envelope } from './common';

/** What the Firebase link (the console following the apps' database) is doing, as an admin reads it. */
export const firebaseLinkStatusSchema = z.object({
  /** This instance follows the database now (one instance does at a time). */
  following: z.boolean(),
  connectedSince: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  /** Records applied (written or found unchanged) per kind, since this instance started. */
  applied: z.record(z.string(), z.number()),
  positions: z.number(),
  skipped: z.number(),
  reconnects: z.number(),
  lastErrors: z.array(z.object({ at: z.string(), message: z.string() })),
});
export type FirebaseLinkStatus = z.infer<typeof firebaseLinkStatusSchema>;

/** GET /api/firebase-link: null when FIREBASE_DATABASE_URL is not set. */
export const firebaseLinkResponseSchema = envelope(firebaseLinkStatusSchema.nullable());
