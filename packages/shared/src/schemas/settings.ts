import { z } from 'zod';
import { envelope } from './common';

/** Run-time settings the web app needs (the map's tile server may differ per install). */
export const settingsResponseSchema = envelope(
  z.object({
    mapTileUrl: z.string(),
    mapAttribution: z.string(),
  }),
);
