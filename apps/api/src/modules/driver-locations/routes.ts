import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { LocationBus } from '../../infra/location-bus';

export type DriverLocationRoutesOptions = { db: Db; locationBus: LocationBus };

export const driverLocationRoutes: FastifyPluginAsyncZod<DriverLocationRoutesOptions> = async () => {};
