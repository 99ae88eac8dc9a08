import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  allRatesResponseSchema,
  copyRatesBodySchema,
  rateHistoryQuerySchema,
  rateHistoryResponseSchema,
  restoreRatesBodySchema,
  stateParamsSchema,
  stateRatesResponseSchema,
  updateRatesBodySchema,
} from '@bmet/shared/schemas/car-rate';
import { overrideQuerySchema } from '@bmet/shared/schemas/fare-rule';
import type { Db } from '../../db/client';
import type { Actor } from '../../infra/audit';
import type { FirebaseWrites } from '../../infra/firebase-outbox';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { copyStateRates, findAllRates, findRateHistory, updateStateRates } from './repository';
import { restoreRateSet } from './restore';

export type CarRateRoutesOptions = { db: Db; firebaseWrites?: FirebaseWrites };

const TAGS = ['car-rates'];
const errors = errorResponses(400, 401, 403);

const actorOf = (request: FastifyRequest): Actor => ({ id: currentUser(request).id, requestId: request.id });

export const carRateRoutes: FastifyPluginAsyncZod<CarRateRoutesOptions> = async (
  app,
  { db, firebaseWrites },
) => {
  app.get(
    '/admin/getAllRates',
    {
      config: { access: ['car-rates', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Every state’s rates, keyed by state then car type, each set with its version',
        response: { 200: allRatesResponseSchema, ...errors },
      },
    },
    async () => ({ data: await findAllRates(db) }),
  );

  app.put(
    '/admin/updateRates/:state',
    {
      config: { access: ['car-rates', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Save rate sets of a state, keyed by car type',
        description:
          'All sets are saved or none. A set of a car type the state already has must carry the ' +
          'version it was based on; when that set has changed since, the answer is 409 and nothing ' +
          'is saved. A set without a version adds a car type the state does not have yet. A set that ' +
          'changes and falls outside the state’s fare band today (`GET /api/fare-rules`) is refused ' +
          'with 422 `FARE_OUT_OF_BAND`, each field named, unless `overrideReason` says why it is kept ' +
          '(the audit trail keeps the reason).',
        params: stateParamsSchema,
        querystring: overrideQuerySchema,
        body: updateRatesBodySchema,
        response: { 200: stateRatesResponseSchema, ...errors, ...errorResponses(409, 422) },
      },
    },
    async (request) => ({
      data: await updateStateRates(
        db,
        actorOf(request),
        request.params.state,
        request.body,
        firebaseWrites,
        request.query.overrideReason,
      ),
    }),
  );

  app.post(
    '/admin/copyRates',
    {
      config: { access: ['car-rates', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Copy every rate set of one state onto another',
        description:
          'The target’s sets of the copied car types take the source’s values and a new version; ' +
          'its other car types stay. Answers the target’s rates.',
        querystring: overrideQuerySchema,
        body: copyRatesBodySchema,
        // 409 only when another admin adds one of the car types to the target at the same moment.
        response: { 200: stateRatesResponseSchema, ...errors, ...errorResponses(409, 422) },
      },
    },
    async (request) => ({
      data: await copyStateRates(
        db,
        actorOf(request),
        request.body.from,
        request.body.to,
        firebaseWrites,
        request.query.overrideReason,
      ),
    }),
  );

  app.post(
    '/admin/restoreRates/:state',
    {
      // Restoring is saving: the same roles as an update (admins, every state).
      config: { access: ['car-rates', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Bring one car type’s rates back to an earlier version, saved as a new version',
        description:
          'The values of `restoreVersion` (from the history) are saved as a new version, exactly as ' +
          'a save would: `version` must be the current version (else 409, nothing saved), the values ' +
          'must be complete and within bounds (else 400), and values outside the state’s fare band ' +
          'need `overrideReason` (else 422). The history and the audit log keep it as a restore; the ' +
          'audit names the version restored. A version not in the history answers 404. Answers the ' +
          'state’s rates.',
        params: stateParamsSchema,
        querystring: overrideQuerySchema,
        body: restoreRatesBodySchema,
        response: { 200: stateRatesResponseSchema, ...errors, ...errorResponses(404, 409, 422) },
      },
    },
    async (request) => ({
      data: await restoreRateSet(
        db,
        actorOf(request),
        request.params.state,
        request.body,
        firebaseWrites,
        request.query.overrideReason,
      ),
    }),
  );

  app.get(
    '/admin/rates-history/:state',
    {
      config: { access: ['car-rates', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'The changes of a state’s rates, newest first, a page at a time',
        params: stateParamsSchema,
        querystring: rateHistoryQuerySchema,
        response: { 200: rateHistoryResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { rows, nextCursor } = await findRateHistory(db, request.params.state, request.query);
      return { data: rows, nextCursor };
    },
  );
};
