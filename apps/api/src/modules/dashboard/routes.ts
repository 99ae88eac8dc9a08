import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  statsCarTypesResponseSchema,
  statsDailyResponseSchema,
  statsFranchisesResponseSchema,
  statsHoursResponseSchema,
  statsOverviewResponseSchema,
  statsQuerySchema,
  statsStatesResponseSchema,
} from '@bmet/shared/schemas/dashboard';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { findCarTypes, findDaily, findFranchises, findHours, findOverview, findStates } from './repository';

export type DashboardRoutesOptions = { db: Db };

const TAGS = ['stats'];
const errors = errorResponses(400, 401, 403);
const PERIOD =
  '`from` and `to` as the trip list takes them (inclusive; a bare date is a whole day in India Standard Time), ' +
  'both required, at most 366 days apart. Counts the trips the trip list shows the caller for the same period.';

const callerOf = (request: FastifyRequest) => {
  const user = currentUser(request);
  return { id: user.id, role: user.role };
};

/** The dashboard's figures, each over the caller's scope, as the trip list scopes trips. */
export const dashboardRoutes: FastifyPluginAsyncZod<DashboardRoutesOptions> = async (app, { db }) => {
  app.get(
    '/stats/overview',
    {
      config: { access: ['dashboard', 'view'] },
      schema: {
        tags: TAGS,
        summary:
          "A period's trips, completions, cancellations, revenue and averages; drivers active and awaiting review now",
        description: `${PERIOD} \`newCustomers\` is counted for admins only (null for other roles).`,
        querystring: statsQuerySchema,
        response: { 200: statsOverviewResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findOverview(db, callerOf(request), request.query) }),
  );

  app.get(
    '/stats/daily',
    {
      config: { access: ['dashboard', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'Trips of each day of a period (in India) by status',
        description: PERIOD,
        querystring: statsQuerySchema,
        response: { 200: statsDailyResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findDaily(db, callerOf(request), request.query) }),
  );

  app.get(
    '/stats/car-types',
    {
      config: { access: ['dashboard', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'Trips, completed trips and their revenue by car type',
        description: PERIOD,
        querystring: statsQuerySchema,
        response: { 200: statsCarTypesResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findCarTypes(db, callerOf(request), request.query) }),
  );

  app.get(
    '/stats/hours',
    {
      config: { access: ['dashboard', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'Trips by the hour of the day (in India) they were created',
        description: PERIOD,
        querystring: statsQuerySchema,
        response: { 200: statsHoursResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findHours(db, callerOf(request), request.query) }),
  );

  app.get(
    '/stats/franchises',
    {
      config: { access: ['dashboard', 'franchises'] },
      schema: {
        tags: TAGS,
        summary: "Trips and revenue by the drivers' franchise (admins and city dealers)",
        description: `${PERIOD} The 25 franchises with the most trips, the others summed.`,
        querystring: statsQuerySchema,
        response: { 200: statsFranchisesResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findFranchises(db, callerOf(request), request.query) }),
  );

  app.get(
    '/stats/states',
    {
      config: { access: ['dashboard', 'states'] },
      schema: {
        tags: TAGS,
        summary: "Trips and revenue by the drivers' state (admins)",
        description: `${PERIOD} The 25 states with the most trips, the others summed.`,
        querystring: statsQuerySchema,
        response: { 200: statsStatesResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await findStates(db, callerOf(request), request.query) }),
  );
};
