import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

export type CustomerRoutesOptions = { db: Db };

export const customerRoutes: FastifyPluginAsyncZod<CustomerRoutesOptions> = async () => {};
