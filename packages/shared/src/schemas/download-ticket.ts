import { z } from 'zod';
import { envelope } from './common';

/** Asks for a download ticket for one export: its address under /api, with the list's query. */
export const downloadTicketBodySchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(2048)
    .describe('The export to download, as a path with its query: /api/trips/export.csv?q=rao'),
});
export type DownloadTicketBody = z.input<typeof downloadTicketBodySchema>;

/** The address to download (the export's, with the ticket added) and until when the ticket works. */
export const downloadTicketResponseSchema = envelope(z.object({ url: z.string(), expiresAt: z.string() }));
