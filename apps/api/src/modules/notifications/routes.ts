import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  notificationListQuerySchema,
  notificationListResponseSchema,
  notificationResponseSchema,
  notificationsReadResponseSchema,
  updateNotificationBodySchema,
} from '@bmet/shared/schemas/notification';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { listNotifications, markAllRead, markNotification } from './repository';

const TAGS = ['notifications'];

/**
 * The caller's own inbox (decision 035): nobody reads or marks another's. What is new is pushed to
 * the caller's tabs on the SOS stream (`event: inbox`), which they hold open on every screen.
 */
export const notificationRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/notifications',
    {
      config: { access: ['notifications', 'list'] },
      schema: {
        tags: TAGS,
        summary: "The caller's inbox, newest first, with how many are unread",
        description:
          'SOS alerts, grievances due within a day or overdue, and drivers’ documents expiring, in ' +
          'the caller’s scope. `unread=true` leaves out those read; `nextCursor` pages on.',
        querystring: notificationListQuerySchema,
        response: { 200: notificationListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) =>
      listNotifications(db, currentUser(request).id, {
        limit: request.query.limit,
        cursor: request.query.cursor,
        unread: request.query.unread === 'true',
      }),
  );

  app.patch(
    '/notifications/:id',
    {
      config: { access: ['notifications', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Mark one of the caller’s notifications read, or unread again',
        params: idParamSchema,
        body: updateNotificationBodySchema,
        response: { 200: notificationResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const notification = await markNotification(
        db,
        currentUser(request).id,
        request.params.id,
        request.body.read,
      );
      if (!notification) throw new AppError('NOT_FOUND', m.notificationNotFound());
      return { data: notification };
    },
  );

  app.post(
    '/notifications/read-all',
    {
      config: { access: ['notifications', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Mark every unread notification of the caller read',
        response: { 200: notificationsReadResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: { read: await markAllRead(db, currentUser(request).id) } }),
  );
};
