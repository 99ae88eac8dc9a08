import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamSchema } from '@bmet/shared/schemas/common';
import {
  createVehicleBodySchema,
  updateVehicleBodySchema,
  vehicleAssignmentBodySchema,
  vehicleDetailResponseSchema,
  vehicleListQuerySchema,
  vehicleListResponseSchema,
  vehicleResponseSchema,
} from '@bmet/shared/schemas/vehicle';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { currentUser } from '../../plugins/authentication';
import { registerVehicleExport } from './export';
import { assignVehicle, createVehicle, findVehicle, findVehicles, updateVehicle } from './repository';

export type VehicleRoutesOptions = { db: Db };

const TAGS = ['vehicles'];

/** Vehicles (decision 029), in the scope of the franchises whose drivers the caller sees. */
export const vehicleRoutes: FastifyPluginAsyncZod<VehicleRoutesOptions> = async (app, { db }) => {
  const callerOf = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { id: user.id, role: user.role, requestId: request.id };
  };

  app.get(
    '/vehicles',
    {
      config: { access: ['vehicles', 'list'] },
      schema: {
        tags: TAGS,
        summary: "The caller's vehicles, by registration number unless sorted otherwise",
        description:
          '`q` searches the registration number (in any spacing), make and model; `compliance` keeps ' +
          'the vehicles within or beyond the guidelines (age); `driverId` the one a driver drives ' +
          'now. Pass `nextCursor` back as `cursor` for the next page.',
        querystring: vehicleListQuerySchema,
        response: { 200: vehicleListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await findVehicles(db, callerOf(request), request.query);
      return keyedList(page.vehicles, page);
    },
  );

  app.post(
    '/vehicles',
    {
      config: { access: ['vehicles', 'create'] },
      schema: {
        tags: TAGS,
        summary: 'Add a vehicle the apps have not reported; audited',
        description:
          'A franchise adds its own; a city dealer names one of its franchises; an admin any ' +
          'franchise or none. The number is stored normalised and must be new (409).',
        body: createVehicleBodySchema,
        response: { 201: vehicleResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const vehicle = await createVehicle(db, callerOf(request), request.body);
      return reply.status(201).send({ data: vehicle });
    },
  );

  app.get(
    '/vehicles/:id',
    {
      config: { access: ['vehicles', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One vehicle, with who drove it when (newest first)',
        params: idParamSchema,
        response: { 200: vehicleDetailResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ data: await findVehicle(db, callerOf(request), request.params.id) }),
  );

  app.patch(
    '/vehicles/:id',
    {
      config: { access: ['vehicles', 'update'] },
      schema: {
        tags: TAGS,
        summary: "Change a vehicle's details; audited",
        description:
          'The fields given change; null clears one. What the driver app reports (make, model, ' +
          'year, colour, car type) is set again when the app changes it.',
        params: idParamSchema,
        body: updateVehicleBodySchema,
        response: { 200: vehicleResponseSchema, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      data: await updateVehicle(db, callerOf(request), request.params.id, request.body),
    }),
  );

  app.put(
    '/vehicles/:id/assignment',
    {
      config: { access: ['vehicles', 'assign'] },
      schema: {
        tags: TAGS,
        summary: 'Give the vehicle to a driver from now, or to nobody; audited',
        description:
          "The driver's earlier vehicle and the vehicle's earlier driver are let go; the history " +
          'keeps each assignment. The vehicle then works for the driver’s franchise.',
        params: idParamSchema,
        body: vehicleAssignmentBodySchema,
        response: { 200: vehicleResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      data: await assignVehicle(db, callerOf(request), request.params.id, request.body.driverId),
    }),
  );

  registerVehicleExport(app, db);
};
