import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

export type TripRoutesOptions = { db: Db };

export const tripRoutes: FastifyPluginAsyncZod<TripRoutesOptions> = async () => {};
