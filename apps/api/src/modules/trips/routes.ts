import type { FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  filterTripsBodySchema,
  tripSortQuerySchema,
  tripCountResponseSchema,
  tripDetailResponseSchema,
  tripFeedbackBodySchema,
  tripFeedbackResponseSchema,
  tripListQuerySchema,
  tripListResponseSchema,
} from '@bmet/shared/schemas/trip';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { refuseNul } from '../../lib/text';
import { currentUser } from '../../plugins/authentication';
import { createTripFeedback, findTripFeedback } from './feedback-repository';
import { countTrips, findTrips } from './list-repository';
import { findTripParticulars } from './particulars';
import { getTrip } from './repository';
import { registerTripExport } from './export';
import { registerTripMessageRoutes } from './messages';
import type { ChangeCaller } from '../../lib/scope';

export type TripRoutesOptions = { db: Db };

const TAGS = ['trips'];
const errors = errorResponses(400, 401, 403, 404);

const LIST_DESCRIPTION =
  'A page newest first, keyed by trip id in list order. `q` matches the title (case-insensitive substring); ' +
  '`from` and `to` are inclusive, and a bare date is a whole day in India Standard Time. ' +
  '`franchiseId` and `state` narrow the list to the trips of those drivers, `hour` to the trips created in that hour of the day in India. ' +
  'Pass `nextCursor` back as `cursor` for the next page; it is null on the last page.';

/** The signed-in caller as the repository needs it: scope and audit identity. */
function callerOf(request: FastifyRequest): ChangeCaller {
  const user = currentUser(request);
  return { id: user.id, role: user.role, requestId: request.id };
}

/**
 * The feedback form shows the server's error text as it is, so an invalid body answers the
 * message of the field at fault without the field's name ('Please choose a rating from 1 to 5
 * stars.'), the rating's first. Other validation failures (the trip id) keep the usual body.
 */
function feedbackValidationError(error: NonNullable<FastifyRequest['validationError']>): Error {
  if (error.validationContext !== 'body' || !hasZodFastifySchemaValidationErrors(error)) return error;
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.validation) {
    const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
    (fieldErrors[field] ??= []).push(issue.message);
  }
  const message = fieldErrors.rating?.[0] ?? Object.values(fieldErrors)[0]?.[0] ?? m.validationFailed();
  return new AppError('VALIDATION', message, { fieldErrors });
}

export const tripRoutes: FastifyPluginAsyncZod<TripRoutesOptions> = async (app, { db }) => {
  app.get(
    '/trips',
    {
      config: { access: ['trips', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'The trips the caller may see (the spec path of admins)',
        description: LIST_DESCRIPTION,
        querystring: tripListQuerySchema,
        response: { 200: tripListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await findTrips(db, callerOf(request), request.query);
      return keyedList(page.trips, page);
    },
  );

  app.post(
    '/trips/filter-trips',
    {
      config: { access: ['trips', 'list'], readsOnly: true },
      schema: {
        tags: TAGS,
        summary: "The trips of the caller's drivers (the spec path of city dealers and franchises)",
        description: `${LIST_DESCRIPTION} \`ids\` narrows the list to those drivers' trips within the caller's scope; ids of drivers outside it match nothing.`,
        body: filterTripsBodySchema,
        querystring: tripSortQuerySchema,
        response: { 200: tripListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { ids, ...filters } = request.body;
      const page = await findTrips(db, callerOf(request), {
        ...filters,
        // The sort as every list takes it, in the query string; the body may name it too.
        sort: filters.sort ?? request.query.sort,
        order: filters.order ?? request.query.order,
        driverIds: ids,
      });
      return keyedList(page.trips, page);
    },
  );

  app.post(
    '/trips/count',
    {
      config: { access: ['trips', 'list'], readsOnly: true },
      schema: {
        tags: TAGS,
        summary: 'How many trips a list with these filters holds (every role)',
        description:
          "The filters of `POST /api/trips/filter-trips`, in the caller's scope. Counted up to 10,000: " +
          'past that, `totalCapped` is true. Asked apart from the list, so that a page never waits for its count.',
        body: filterTripsBodySchema,
        response: { 200: tripCountResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { ids, ...filters } = request.body;
      return { data: await countTrips(db, callerOf(request), { ...filters, driverIds: ids }) };
    },
  );

  app.get(
    '/trips/:id',
    {
      config: { access: ['trips', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One trip with its saved feedback (newest first), its timeline and how its fare is made',
        params: idParamSchema,
        response: { 200: tripDetailResponseSchema, ...errors },
      },
    },
    async (request) => {
      const trip = await getTrip(db, callerOf(request), request.params.id);
      const [feedback, particulars] = await Promise.all([
        findTripFeedback(db, trip.id),
        findTripParticulars(db, trip),
      ]);
      return { data: { ...trip, feedback, ...particulars } };
    },
  );

  app.post(
    '/trips/:id/feedback',
    {
      config: { access: ['trips', 'feedback'] },
      // Validation errors reach the handler, which words them for the feedback form.
      attachValidation: true,
      schema: {
        tags: TAGS,
        summary: 'Save feedback and a 1-to-5 star rating on a trip, with the author and time',
        params: idParamSchema,
        body: tripFeedbackBodySchema,
        response: { 201: tripFeedbackResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      if (request.validationError) throw feedbackValidationError(request.validationError);
      refuseNul('feedback', request.body.feedback);
      const saved = await createTripFeedback(db, callerOf(request), request.params.id, request.body);
      if (!saved) throw new AppError('NOT_FOUND', m.notFound());
      return reply.status(201).send({ data: saved });
    },
  );

  registerTripExport(app, db);
  registerTripMessageRoutes(app, db);
};
