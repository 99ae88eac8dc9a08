import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  complianceListResponseSchema,
  complianceQuerySchema,
  complianceSummaryResponseSchema,
} from '@bmet/shared/schemas/compliance';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { registerComplianceExport } from './export';
import { complianceSummary, findComplianceEntries } from './repository';

export type ComplianceRoutesOptions = { db: Db };

const TAGS = ['compliance'];
const errors = errorResponses(400, 401, 403);

/** Documents that need attention: expired, expiring soon, awaiting review; every role, in its scope. */
export const complianceRoutes: FastifyPluginAsyncZod<ComplianceRoutesOptions> = async (app, { db }) => {
  app.get(
    '/compliance',
    {
      config: { access: ['compliance', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'Documents expired, expiring soon or awaiting review, of the drivers the caller may see',
        description:
          '`within=0`: the approved documents that have expired; `within=N` (default 30): those expiring from today to N days on (days in India), soonest first; `status=submitted`: the documents awaiting review, oldest upload first. Pass `nextCursor` back as `cursor` for the next page.',
        querystring: complianceQuerySchema,
        response: { 200: complianceListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { entries, nextCursor } = await findComplianceEntries(db, user, request.query);
      return { data: entries, nextCursor };
    },
  );

  app.get(
    '/compliance/summary',
    {
      config: { access: ['compliance', 'list'] },
      schema: {
        tags: TAGS,
        summary: 'How many documents each compliance view holds for the caller',
        response: { 200: complianceSummaryResponseSchema, ...errors },
      },
    },
    async (request) => ({ data: await complianceSummary(db, currentUser(request)) }),
  );

  registerComplianceExport(app, db);
};
