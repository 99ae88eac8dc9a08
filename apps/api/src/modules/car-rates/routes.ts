import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';

export type CarRateRoutesOptions = { db: Db };

export const carRateRoutes: FastifyPluginAsyncZod<CarRateRoutesOptions> = async () => {};
