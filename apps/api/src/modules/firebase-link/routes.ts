import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import {
  firebaseLinkRereadBodySchema,
  firebaseLinkResponseSchema,
  firebaseLinkStatusSchema,
} from '@bmet/shared/schemas/firebase-link';
import { envelope } from '@bmet/shared/schemas/common';
import type { Db } from '../../db/client';
import { recordAudit } from '../../infra/audit';
import { readLinkStatus, requestReread } from '../../infra/firebase-link-state';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';

export type FirebaseLinkRoutesOptions = {
  db: Db;
  /** Set when FIREBASE_DATABASE_URL is: the link is configured. */
  firebaseLink?: { writeBack: boolean };
};

const TAGS = ['operations'];

/** The link to the apps' Firebase database, for admins: what it does, and a re-read on request. */
export const firebaseLinkRoutes: FastifyPluginAsyncZod<FirebaseLinkRoutesOptions> = async (
  app,
  { db, firebaseLink },
) => {
  app.get(
    '/firebase-link',
    {
      config: { access: ['firebase-link', 'view'] },
      schema: {
        tags: TAGS,
        summary:
          "The link to the apps' Firebase database: who follows it since when, what it applied, lag, the outbox and the last errors",
        description: 'Answers null when FIREBASE_DATABASE_URL is not set.',
        response: { 200: firebaseLinkResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async () => ({ data: firebaseLink ? await readLinkStatus(db, firebaseLink.writeBack) : null }),
  );

  app.post(
    '/firebase-link/reread',
    {
      config: { access: ['firebase-link', 'reread'] },
      schema: {
        tags: TAGS,
        summary: 'Read one kind of record again, whole, from Firebase, and apply the differences',
        description:
          'The instance that follows the database takes the request within 2 s; the answer is the ' +
          'link with the request in `rereadsAsked` (or already `rereading`). 409 when no instance follows.',
        body: firebaseLinkRereadBodySchema,
        response: {
          202: envelope(firebaseLinkStatusSchema),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      if (!firebaseLink) throw new AppError('CONFLICT', m.firebaseLinkNotConfigured());
      if (!(await requestReread(db, request.body.kind))) {
        throw new AppError('CONFLICT', m.firebaseLinkNotFollowing());
      }
      await recordAudit(
        db,
        { id: currentUser(request).id, requestId: request.id },
        {
          action: 'reread',
          resource: 'firebase-link',
          resourceId: request.body.kind,
          before: null,
          after: { kind: request.body.kind },
        },
      );
      return reply.status(202).send({ data: await readLinkStatus(db, firebaseLink.writeBack) });
    },
  );
};
