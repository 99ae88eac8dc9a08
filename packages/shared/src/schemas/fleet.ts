import { z } from 'zod';
import { CAR_TYPES } from '../constants';
import { m } from '../paraglide/messages.js';
import { envelope, momentSchema } from './common';

/**
 * A car on the fleet map: who, where and when it last reported. Kept compact: the map holds every
 * driver in the caller's scope at once. `updatedAt` is null for a position of unknown time. Ids are
 * plain strings here: they come from the database, and an answer can hold 100,000 of them.
 */
export const fleetDriverSchema = z.object({
  id: z.string(),
  name: z.string(),
  lat: z.number(),
  long: z.number(),
  updatedAt: z.string().nullable(),
  carType: z.enum(CAR_TYPES).nullable(),
  franchiseId: z.string().nullable(),
});
export type FleetDriver = z.infer<typeof fleetDriverSchema>;

/** `GET /api/fleet`: every driver in scope with a known position, in no particular order. */
export const fleetResponseSchema = envelope(z.array(fleetDriverSchema));
export type FleetResponse = z.infer<typeof fleetResponseSchema>;

export const fleetQuerySchema = z.object({
  /** Only the drivers whose position is at least this recent (the polling fallback's delta). */
  since: momentSchema(() => m.notValidTime()).optional(),
});

/**
 * The fleet stream's messages (Server-Sent Events): `positions` carries an array of FleetDriver
 * (new and moved cars), `gone` an array of ids that left the caller's scope or lost their
 * position, `refresh` asks the client to load `GET /api/fleet` again (many cars changed scope).
 */
export const FLEET_STREAM_EVENTS = ['positions', 'gone', 'refresh'] as const;
