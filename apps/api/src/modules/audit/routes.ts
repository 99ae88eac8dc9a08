import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditListQuerySchema, auditListResponseSchema } from '@bmet/shared/schemas/audit';
import type { Db } from '../../db/client';
import { errorResponses } from '../../lib/error-responses';
import { currentUser } from '../../plugins/authentication';
import { registerAuditExport } from './export';
import { findAuditEntries } from './repository';

export type AuditRoutesOptions = { db: Db };

const errors = errorResponses(400, 401, 403);

/** The audit trail: every change, who made it and the values before and after. */
export const auditRoutes: FastifyPluginAsyncZod<AuditRoutesOptions> = async (app, { db }) => {
  app.get(
    '/audit',
    {
      config: { access: ['audit', 'list'] },
      schema: {
        tags: ['audit'],
        summary: 'The audit trail, newest first',
        description:
          'Every change: who, what, which record, when, and the changed values before and after. An admin reads every change; a city dealer the changes to records in its scope (its franchises, their drivers with their documents and devices, feedback on their trips, its own account). Filters: `actor` (an account id), `recordType`, `recordId` (with `recordType=drivers`, the driver with its documents and devices), `action`, `from` and `to` (whole days in IST, inclusive). Pass `nextCursor` back as `cursor` for the next page.',
        querystring: auditListQuerySchema,
        response: { 200: auditListResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { entries, nextCursor } = await findAuditEntries(db, currentUser(request), request.query);
      return { data: entries, nextCursor };
    },
  );

  registerAuditExport(app, db);
};
