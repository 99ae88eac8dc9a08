import { z } from 'zod';
import { ROLES } from '../constants';

/** GET /api/drivers/driver/{id}/documents/{key}/views: a page of a document's views, newest first. */
export const documentViewsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});
export type DocumentViewsQuery = z.input<typeof documentViewsQuerySchema>;

/** One time someone was served the image of a document: who (name, else email) and when. */
export const documentViewSchema = z.object({
  at: z.string(),
  viewer: z.object({ id: z.uuid(), name: z.string(), role: z.enum(ROLES) }),
});
export type DocumentView = z.infer<typeof documentViewSchema>;

export const documentViewsResponseSchema = z.object({
  data: z.array(documentViewSchema),
  nextCursor: z.string().nullable(),
});
export type DocumentViewsResponse = z.infer<typeof documentViewsResponseSchema>;
