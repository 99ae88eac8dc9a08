import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deskRulesParamsSchema,
  deskRulesResponseSchema,
  putDeskRulesBodySchema,
  stateDeskRulesResponseSchema,
} from '@bmet/shared/schemas/desk-rules';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { findDeskRules } from './desk-rules';
import { saveDeskRules } from './save-desk-rules';

const TAGS = ['grievances'];
const errors = errorResponses(400, 401, 403);

/** Each state's rules of the grievance desk and the control room (decision 036). */
export const deskRuleRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/desk-rules',
    {
      config: { access: ['desk-rules', 'list'] },
      schema: {
        tags: TAGS,
        summary: "Every state's grievance and SOS rules in effect today (India), and those saved for later",
        description:
          'The working days of a grievance’s deadline, the shares of complaints and of ratings below ' +
          '3 stars that call for action on a driver (null: no such rule; Delhi’s by default), and ' +
          'the seconds after which an SOS nobody acknowledged is raised again; `effectiveFrom` null ' +
          'where a state keeps its defaults.',
        response: { 200: deskRulesResponseSchema, ...errors },
      },
    },
    async () => ({ data: await findDeskRules(db) }),
  );

  app.put(
    '/desk-rules/:state',
    {
      config: { access: ['desk-rules', 'update'] },
      schema: {
        tags: TAGS,
        summary: "Save a state's grievance and SOS rules, from a day on",
        description:
          'A new version, in effect from `effectiveFrom` (India’s date) until a later one; the earlier ' +
          'versions stay as history. The deadlines of the state’s unresolved grievances whose clock ' +
          'started on or after that day are worked out again. Audited.',
        params: deskRulesParamsSchema,
        body: putDeskRulesBodySchema,
        response: { 200: stateDeskRulesResponseSchema, ...errors },
      },
    },
    async (request) => ({
      data: await saveDeskRules(
        db,
        { id: currentUser(request).id, requestId: request.id },
        request.params.state,
        request.body,
      ),
    }),
  );
};
