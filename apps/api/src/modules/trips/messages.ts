import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParamSchema } from '@bmet/shared/schemas/common';
import { tripMessagesResponseSchema } from '@bmet/shared/schemas/trip-message';
import type { Db } from '../../db/client';
import { tripMessages } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { getTrip } from './repository';

/** At most this many messages of one trip are shown: a chat about a pick-up is a few lines. */
const MESSAGES_SHOWN = 200;

/** GET /api/trips/{id}/messages: the chat of a trip, oldest first, to whoever may see the trip. */
export function registerTripMessageRoutes(parent: FastifyInstance, db: Db) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/trips/:id/messages',
    {
      config: { access: ['trips', 'view'] },
      schema: {
        tags: ['trips'],
        summary: "The messages between the trip's customer and driver, oldest first",
        params: idParamSchema,
        response: {
          200: tripMessagesResponseSchema,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const trip = await getTrip(db, currentUser(request), request.params.id);
      // Push ids sort in the order the messages were written.
      const data = await db
        .select({ id: tripMessages.id, sender: tripMessages.sender, message: tripMessages.message })
        .from(tripMessages)
        .where(eq(tripMessages.tripId, trip.id))
        .orderBy(asc(tripMessages.firebaseKey))
        .limit(MESSAGES_SHOWN);
      return { data };
    },
  );
}
