import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  customerDetailResponseSchema,
  customerListQuerySchema,
  customerListResponseSchema,
} from '@bmet/shared/schemas/customer';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { findCustomer, findCustomers } from './repository';
import { registerCustomerExport } from './export';

export type CustomerRoutesOptions = { db: Db };

const TAGS = ['customers'];
const errors = errorResponses(400, 401, 403, 404);

// Customers are admins' business only (the matrix says so): their emails and phone numbers are
// personal data, so these routes never serve another role.
export const customerRoutes: FastifyPluginAsyncZod<CustomerRoutesOptions> = async (app, { db }) => {
  app.get(
    '/customers',
    {
      config: { access: ['customers', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Customers in name order',
        description:
          'A page keyed by customer id in list order, with the count of all that match; `q` searches name, email and phone number (case-insensitive substring); pass `nextCursor` back as `cursor` for the next page.',
        querystring: customerListQuerySchema,
        response: { 200: customerListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const page = await findCustomers(db, request.query);
      return keyedList(page.customers, page);
    },
  );

  app.get(
    '/customers/:id',
    {
      config: { access: ['customers', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One customer with the ratings drivers gave them (newest first) and their average',
        params: idParamSchema,
        response: { 200: customerDetailResponseSchema, ...errors },
      },
    },
    async (request) => {
      const customer = await findCustomer(db, request.params.id);
      if (!customer) throw new AppError('NOT_FOUND', m.notFound());
      return { data: customer };
    },
  );

  registerCustomerExport(app, db);
};
