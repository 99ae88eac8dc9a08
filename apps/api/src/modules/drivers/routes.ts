import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import type { ObjectStore } from '../../infra/object-store';

export type DriverRoutesOptions = { db: Db; objectStore: ObjectStore };

export const driverRoutes: FastifyPluginAsyncZod<DriverRoutesOptions> = async () => {};
