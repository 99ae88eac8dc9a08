import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  assignDriverBodySchema,
  documentParamsSchema,
  driverDetailResponseSchema,
  driverDocumentResponseSchema,
  driverDocumentsResponseSchema,
  driverDocumentsQuerySchema,
  driverListQuerySchema,
  driverListResponseSchema,
  historyQuerySchema,
  historyResponseSchema,
  ratingsQuerySchema,
  ratingsResponseSchema,
  reviewDocumentBodySchema,
  type Driver,
} from '@bmet/shared/schemas/driver';
import { DOCUMENT_IMAGE_MAX_BYTES, DOCUMENT_IMAGE_TYPES } from '@bmet/shared/constants';
import type { Db } from '../../db/client';
import { documentObjectKey, type ObjectStore } from '../../infra/object-store';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { currentUser } from '../../plugins/authentication';
import { isDocumentImageType, prepareDocumentImage } from './document-image';
import {
  findDocumentImage,
  findDriverDocuments,
  reviewDocument,
  saveDocumentImage,
} from './documents-repository';
import { findDriverHistory, findDriverRatings } from './history-repository';
import { findDrivers } from './list-repository';
import { assignDriver, findRatingSummary, getDriver, restoreDriver, softDeleteDriver } from './repository';
import { IMAGE_CONTENT } from '../../plugins/openapi';
import { complianceOf } from '../compliance/status';
import { registerDriverExport } from './export';
import { registerDriverChecksExport } from './checks-export';
import { registerDriverWalletRoutes } from './wallet';
import { registerDriverCheckRoutes } from './checks';
import { registerDocumentViewRoutes, serveDocumentImage } from './document-views';
import { registerDocumentApprovalRoutes } from './document-approvals';
import { refuseDeletedView } from './scope';
import type { ChangeCaller } from '../../lib/scope';

export type DriverRoutesOptions = { db: Db; objectStore: ObjectStore };

const TAGS = ['drivers'];
const errors = errorResponses(400, 401, 403, 404);
const UPLOADS_PER_MINUTE = 60;
const notFound = () => new AppError('NOT_FOUND', m.notFound());

/** The signed-in caller as the repository needs it: scope and audit identity. */
function callerOf(request: FastifyRequest): ChangeCaller {
  const user = currentUser(request);
  return { id: user.id, role: user.role, requestId: request.id };
}

/** The media type of a Content-Type header, without parameters, lowercased. */
const mediaTypeOf = (header: string | undefined) => header?.split(';')[0]?.trim().toLowerCase() ?? '';

export const driverRoutes: FastifyPluginAsyncZod<DriverRoutesOptions> = async (app, { db, objectStore }) => {
  // Document images arrive as raw bytes; these parsers only exist inside this plugin.
  app.addContentTypeParser([...DOCUMENT_IMAGE_TYPES], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );

  const withRating = async (driver: Driver) => {
    const [rating, compliance] = await Promise.all([
      findRatingSummary(db, driver.id),
      complianceOf(db, [driver.id]),
    ]);
    return { data: { ...driver, rating, compliance: compliance.get(driver.id) } };
  };

  // The spec loads the drivers of each role from its own path; all three answer what the caller
  // may see, so one handler serves them.
  const listPaths = [
    ['/drivers', 'The drivers the caller may see (admin path)'],
    ['/city_dealer', "The drivers of a city dealer's franchises (the spec's path for city dealers)"],
    ['/franchise', "A franchise's drivers (the spec's path for franchises)"],
  ] as const;
  for (const [path, summary] of listPaths) {
    app.get(
      path,
      {
        config: { access: ['drivers', 'list'] },
        schema: {
          tags: TAGS,
          summary,
          description:
            'A page in name order (`sort=name|createdAt`, `order=asc|desc`), keyed by driver id in list order; `q` searches name, email, phone and vehicle number; `compliance` keeps the drivers whose mandatory documents are all approved and unexpired (`compliant`) or not (`not_compliant`), and each driver says which are not; pass `nextCursor` back as `cursor` for the next page.',
          querystring: driverListQuerySchema,
          response: { 200: driverListResponseSchema, ...errors },
        },
      },
      async (request) => {
        const caller = callerOf(request);
        refuseDeletedView(caller, request.query.deleted);
        const page = await findDrivers(db, caller, request.query);
        return keyedList(page.drivers, page);
      },
    );
  }

  app.get(
    '/drivers/driver/:id',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One driver with the average and count of its ratings',
        params: idParamSchema,
        response: { 200: driverDetailResponseSchema, ...errors },
      },
    },
    async (request) => withRating(await getDriver(db, callerOf(request), request.params.id)),
  );

  app.delete(
    '/drivers/driver/:id',
    {
      config: { access: ['drivers', 'delete'] },
      schema: {
        tags: TAGS,
        summary: 'Soft-delete a driver (an admin can restore it)',
        params: idParamSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      if (!(await softDeleteDriver(db, callerOf(request), request.params.id))) throw notFound();
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/drivers/driver/:id/restore',
    {
      config: { access: ['drivers', 'restore'] },
      schema: {
        tags: TAGS,
        summary: 'Restore a soft-deleted driver',
        params: idParamSchema,
        response: { 200: driverDetailResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await restoreDriver(db, callerOf(request), request.params.id);
      if (!driver) throw notFound();
      return withRating(driver);
    },
  );

  app.patch(
    '/drivers/driver/:id/assignment',
    {
      config: { access: ['drivers', 'assign'] },
      schema: {
        tags: TAGS,
        summary: "Assign a driver to a franchise and a state (null state: the franchise's)",
        params: idParamSchema,
        body: assignDriverBodySchema,
        response: { 200: driverDetailResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await assignDriver(db, callerOf(request), request.params.id, request.body);
      if (!driver) throw notFound();
      return withRating(driver);
    },
  );

  app.get(
    '/drivers/driver/:id/documents',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'The ten documents of a driver with their review status',
        description:
          'With `of=vehicle`, the documents of the vehicle the driver drives now (registration, fitness, ' +
          'permit, pollution and insurance), which travel with the vehicle from driver to driver.',
        params: idParamSchema,
        querystring: driverDocumentsQuerySchema,
        response: { 200: driverDocumentsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await getDriver(db, callerOf(request), request.params.id);
      return { data: await findDriverDocuments(db, driver.id, request.query.of) };
    },
  );

  app.get(
    '/drivers/driver/:id/documents/:key/image',
    {
      config: { access: ['drivers', 'view'], openapi: { responses: { 200: IMAGE_CONTENT } } },
      schema: {
        tags: TAGS,
        summary: 'The image of a document (JPEG or PNG bytes), only to callers who may see the driver',
        description:
          "Every call is recorded in the document's views (`.../views`). Aadhaar and PAN card images carry a watermark naming the caller and the time (IST).",
        params: documentParamsSchema,
        response: { 200: z.unknown().describe('The image bytes, image/jpeg or image/png'), ...errors },
      },
    },
    async (request, reply) => {
      const { id, key } = request.params;
      const driver = await getDriver(db, callerOf(request), id);
      const image = await findDocumentImage(db, driver.id, key);
      if (!image) throw notFound();
      const stored = await objectStore.get(image.objectKey);
      if (!stored) throw notFound();
      const declared = image.contentType ?? stored.contentType;
      const served = await serveDocumentImage(db, {
        driverId: driver.id,
        key,
        viewer: currentUser(request),
        body: Buffer.from(stored.body),
        contentType: declared,
      });
      // no-store: a watermarked image is one viewer's, and no copy may be served to another.
      return reply
        .header(
          'content-type',
          isDocumentImageType(served.contentType) ? served.contentType : 'application/octet-stream',
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(served.body);
    },
  );

  app.put(
    '/drivers/driver/:id/documents/:key/image',
    {
      // Decoding and encoding images is the heaviest work of the API: a limit of its own.
      config: {
        access: ['drivers', 'upload'],
        rateLimit: { max: UPLOADS_PER_MINUTE, timeWindow: '1 minute' },
        openapi: { requestBody: IMAGE_CONTENT },
      },
      bodyLimit: DOCUMENT_IMAGE_MAX_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Upload or replace the image of a document (raw JPEG or PNG body, at most 5 MB)',
        description:
          'The image is checked by its content and stored again without metadata; the document goes back to review.',
        params: documentParamsSchema,
        response: {
          200: driverDocumentResponseSchema,
          ...errors,
          ...errorResponses(413, 415, 429),
        },
      },
      // Before the body is read: a clear answer without receiving megabytes first.
      preParsing: async (request, _reply, payload) => {
        if (!isDocumentImageType(mediaTypeOf(request.headers['content-type']))) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeNotAccepted());
        }
        if (Number(request.headers['content-length']) > DOCUMENT_IMAGE_MAX_BYTES) {
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            m.imageTooLarge({ megabytes: DOCUMENT_IMAGE_MAX_BYTES / 1024 / 1024 }),
          );
        }
        return payload;
      },
    },
    async (request) => {
      const { id, key } = request.params;
      const caller = callerOf(request);
      // Scope first: a driver the caller may not see is a 404 before any image work.
      await getDriver(db, caller, id);
      const declared = mediaTypeOf(request.headers['content-type']);
      if (!isDocumentImageType(declared))
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.imageTypeNotAccepted());
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const image = await prepareDocumentImage(body, declared);
      const objectKey = documentObjectKey(id, key, image.extension);
      const saved = await saveDocumentImage(db, caller, {
        driverId: id,
        key,
        objectKey,
        contentType: image.contentType,
        size: image.body.length,
        storeImage: () => objectStore.put(objectKey, image.body, image.contentType),
      });
      if (!saved) throw notFound();
      // The previous image under the other extension of this driver's own key; images shared by
      // several drivers (the demo's) are never removed.
      const replaced = saved.replacedObjectKey;
      if (replaced && replaced.startsWith(`images/${id}/`)) {
        await objectStore.delete(replaced).catch((error: unknown) => {
          request.log.warn({ err: error, objectKey: replaced }, 'could not remove a replaced document image');
        });
      }
      return { data: saved.document };
    },
  );

  app.patch(
    '/drivers/driver/:id/documents/:key',
    {
      config: { access: ['drivers', 'review'] },
      schema: {
        tags: TAGS,
        summary: 'Review a document: approve, reject with a reason, or send back to submitted',
        params: documentParamsSchema,
        body: reviewDocumentBodySchema,
        response: { 200: driverDocumentResponseSchema, ...errors, ...errorResponses(409) },
      },
    },
    async (request) => {
      const { id, key } = request.params;
      const document = await reviewDocument(db, callerOf(request), {
        driverId: id,
        key,
        decision: request.body,
      });
      if (!document) throw notFound();
      return { data: document };
    },
  );

  app.get(
    '/drivers/driver/:id/history',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: TAGS,
        summary: "The driver's booking history: completed trips, newest first",
        params: idParamSchema,
        querystring: historyQuerySchema,
        response: { 200: historyResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await getDriver(db, callerOf(request), request.params.id);
      return findDriverHistory(db, driver.id, request.query);
    },
  );

  app.get(
    '/drivers/driver/:id/ratings',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: TAGS,
        summary: "The driver's rating entries, newest first, with their average and count",
        params: idParamSchema,
        querystring: ratingsQuerySchema,
        response: { 200: ratingsResponseSchema, ...errors },
      },
    },
    async (request) => {
      const driver = await getDriver(db, callerOf(request), request.params.id);
      const page = await findDriverRatings(db, driver.id, request.query);
      const summary = await findRatingSummary(db, driver.id);
      return { ...page, summary };
    },
  );

  registerDriverExport(app, db);
  registerDriverChecksExport(app, db);
  registerDocumentViewRoutes(app, db);
  registerDocumentApprovalRoutes(app, db);
  registerDriverWalletRoutes(app, db);
  registerDriverCheckRoutes(app, db);
};
