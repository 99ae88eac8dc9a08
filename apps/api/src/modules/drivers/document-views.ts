import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type DocumentKey, type Role } from '@bmet/shared/constants';
import { WATERMARKED_DOCUMENTS } from '@bmet/shared/document-rules';
import { documentParamsSchema } from '@bmet/shared/schemas/driver';
import {
  documentViewsQuerySchema,
  documentViewsResponseSchema,
  type DocumentView,
} from '@bmet/shared/schemas/document-views';
import type { Db, DbExecutor } from '../../db/client';
import { accounts, documentViews } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { cursorTimestampSchema, decodeCursor, keysetPage, newestFirst } from '../../lib/paging';
import { currentUser, type SessionUser } from '../../plugins/authentication';
import { getDriver } from './repository';
import { watermarkImage } from './watermark';

const WATERMARKED: readonly DocumentKey[] = WATERMARKED_DOCUMENTS;

/** Whether a document's image is served with the viewer's watermark (the identity documents). */
export const isWatermarked = (key: DocumentKey) => WATERMARKED.includes(key);

/**
 * The bytes a viewer is served of a stored document image: identity documents carry a watermark
 * naming the viewer and the moment, and every view is recorded before anything is sent. A view
 * that cannot be recorded is refused (the error reaches the caller as a 500): the history exists
 * so that nobody sees an identity document without it being known, and an image served anyway
 * would be exactly the view it misses.
 */
export async function serveDocumentImage(
  db: DbExecutor,
  input: {
    driverId: string;
    key: DocumentKey;
    viewer: Pick<SessionUser, 'id' | 'email' | 'displayName'>;
    body: Buffer;
    contentType: string;
  },
): Promise<{ body: Buffer; contentType: string }> {
  const at = new Date();
  const watermarked = isWatermarked(input.key);
  const served = watermarked
    ? await watermarkImage(input.body, input.viewer, at)
    : { body: input.body, contentType: input.contentType };
  await db.insert(documentViews).values({
    driverId: input.driverId,
    key: input.key,
    viewerId: input.viewer.id,
    watermarked,
    at,
  });
  return served;
}

const viewCursorSchema = z.object({ at: cursorTimestampSchema, id: z.number().int().min(1) }).strict();

/** A page of the views of one document, newest first (the index on driver, key, at desc, id desc). */
export async function findDocumentViews(
  db: DbExecutor,
  driverId: string,
  key: DocumentKey,
  options: { limit: number; cursor?: string },
): Promise<{ data: DocumentView[]; nextCursor: string | null }> {
  const before = options.cursor ? decodeCursor(options.cursor, viewCursorSchema) : null;
  const rows = await db
    .select({
      id: documentViews.id,
      at: documentViews.at,
      cursorAt: sql<string>`to_char(${documentViews.at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      viewerId: accounts.id,
      viewerName: sql<string>`coalesce(${accounts.displayName}, ${accounts.email})`,
      viewerRole: accounts.role,
    })
    .from(documentViews)
    .innerJoin(accounts, eq(accounts.id, documentViews.viewerId))
    .where(
      and(
        eq(documentViews.driverId, driverId),
        eq(documentViews.key, key),
        before
          ? sql`(${documentViews.at}, ${documentViews.id}) < (${before.at}::timestamptz, ${before.id}::bigint)`
          : undefined,
      ),
    )
    .orderBy(...newestFirst(documentViews.at, documentViews.id))
    .limit(options.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, options.limit, (row) => ({ at: row.cursorAt, id: row.id }));
  return {
    nextCursor,
    data: shown.map((row) => ({
      at: row.at.toISOString(),
      viewer: { id: row.viewerId, name: row.viewerName, role: row.viewerRole as Role },
    })),
  };
}

/** GET .../documents/{key}/views: who was served a document's image and when, to whoever may see it. */
export function registerDocumentViewRoutes(parent: FastifyInstance, db: Db) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/drivers/driver/:id/documents/:key/views',
    {
      // The same access as the image itself: whoever may see a document may see who saw it.
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: ['drivers'],
        summary: "Who was served a document's image, and when: newest first",
        description:
          'Every view of the image is recorded, thumbnails included. Pass `nextCursor` back as `cursor` for the next page.',
        params: documentParamsSchema,
        querystring: documentViewsQuerySchema,
        response: {
          200: documentViewsResponseSchema,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { id, key } = request.params;
      const driver = await getDriver(db, user, id);
      return findDocumentViews(db, driver.id, key, request.query);
    },
  );
}
