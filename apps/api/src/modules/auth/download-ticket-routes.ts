import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { rolesFor } from '@bmet/shared/permissions';
import { downloadTicketBodySchema, downloadTicketResponseSchema } from '@bmet/shared/schemas/download-ticket';
import type { Db } from '../../db/client';
import { currentUser } from '../../plugins/authentication';
import { addressWithTicket, issueDownloadTicket, splitAddress } from '../../lib/download-tickets';
import { errorResponses } from '../../lib/error-responses';

export type DownloadTicketRoutesOptions = { db: Db };

/** A query string as the server's query parser reads it: a repeated name gives a list. */
function queryObject(query: string): Record<string, string | string[]> {
  const values: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) {
    const before = values[name];
    values[name] = before === undefined ? value : [before, value].flat();
  }
  return values;
}

/** The export's own 400 for a query it would refuse, in the usual error body. */
function queryError(error: z.ZodError): AppError {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.issues) (fieldErrors[issue.path.join('.') || '_'] ??= []).push(issue.message);
  const [field, messages] = Object.entries(fieldErrors)[0]!;
  const message =
    Object.keys(fieldErrors).length > 1
      ? m.validationFailed()
      : field === '_'
        ? messages[0]!
        : `${field}: ${messages[0]!}`;
  return new AppError('VALIDATION', message, { fieldErrors });
}

export const downloadTicketRoutes: FastifyPluginAsyncZod<DownloadTicketRoutesOptions> = async (
  app,
  { db },
) => {
  app.post(
    '/auth/download-tickets',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['auth'],
        summary: 'A single-use ticket to download one CSV export without the bearer token',
        description:
          "For browsers: the download manager cannot send the bearer token, so the page asks for a ticket and navigates to the answered `url`, which carries it. The export's permission, query and refusals are checked now, as the export itself checks them. The ticket works once, within 60 seconds, for that path and query only, and only while this session is active.",
        body: downloadTicketBodySchema,
        response: {
          201: downloadTicketResponseSchema,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { path, query } = splitAddress(request.body.url);
      const target = app.downloadTicketRoutes.get(path);
      if (!target) {
        const message = m.downloadTicketNotAnExport();
        throw new AppError('VALIDATION', message, { fieldErrors: { url: [message] } });
      }
      if (!rolesFor(target.access).includes(user.role)) {
        throw new AppError('FORBIDDEN', m.forbidden());
      }
      const parsed = target.query.safeParse(queryObject(query));
      if (!parsed.success) throw queryError(parsed.error);
      target.authorize?.(user, parsed.data as never);
      const { ticket, expiresAt } = await issueDownloadTicket(db, {
        sessionId: user.sessionId,
        accountId: user.id,
        path,
        query,
      });
      return reply.status(201).send({
        data: { url: addressWithTicket(path, query, ticket), expiresAt: expiresAt.toISOString() },
      });
    },
  );
};
