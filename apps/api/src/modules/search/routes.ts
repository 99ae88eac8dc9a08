import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuerySchema, searchResponseSchema } from '@bmet/shared/schemas/search';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { findSearchMatches } from './repository';

export type SearchRoutesOptions = { db: Db };

/**
 * The console's one search box (in the header): every signed-in role may call it, and each kind
 * of record is answered only to the roles that may list it, within their scope.
 */
export const searchRoutes: FastifyPluginAsyncZod<SearchRoutesOptions> = async (app, { db }) => {
  app.get(
    '/search',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['search'],
        summary: 'The first matches of each kind of record the caller may list',
        description:
          'Up to 5 trips, drivers, customers, city dealers and franchises matching `q` (2 to 100 characters once trimmed), ' +
          "each found by that list's own search and scope: trips by the customer's name or phone, a place, a vehicle number or the trip ID; " +
          'drivers by name, email, phone or vehicle number; customers by name, email or phone; city dealers and franchises by name or email. ' +
          'A kind the caller may not list is absent: customers and city dealers are for admins, franchises for admins and city dealers.',
        querystring: searchQuerySchema,
        response: { 200: searchResponseSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { data: await findSearchMatches(db, { id: user.id, role: user.role }, request.query.q) };
    },
  );
};
