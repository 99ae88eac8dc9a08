import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idParamSchema, messageResponseSchema } from '@bmet/shared/schemas/common';
import {
  createGrievanceBodySchema,
  createHolidayBodySchema,
  grievanceCommentBodySchema,
  grievanceDetailResponseSchema,
  grievanceEventResponseSchema,
  grievanceListQuerySchema,
  grievanceListResponseSchema,
  grievanceOfficerBodySchema,
  grievanceOfficerResponseSchema,
  grievanceResponseSchema,
  grievanceSummaryResponseSchema,
  holidayListQuerySchema,
  holidayListResponseSchema,
  holidayResponseSchema,
  grievanceAttachmentParamsSchema,
  grievanceAttachmentResponseSchema,
  updateGrievanceBodySchema,
  driversNeedingActionQuerySchema,
  driversNeedingActionResponseSchema,
  grievanceMonthQuerySchema,
  grievanceReportResponseSchema,
} from '@bmet/shared/schemas/grievance';
import { m } from '@bmet/shared/paraglide/messages';
import { GRIEVANCE_ATTACHMENT_TYPES } from '@bmet/shared/grievance-rules';
import { AppError } from '@bmet/shared/errors';
import { z } from 'zod';
import type { ObjectStore } from '../../infra/object-store';
import { ATTACHMENT_CONTENT } from '../../plugins/openapi';
import { addAttachment, findAttachments, isAttachmentType, readAttachment } from './attachments';
import type { Db } from '../../db/client';
import { createMailer, type Mail } from '../../infra/mailer';
import type { Config } from '../../config';
import { errorResponses } from '../../lib/error-responses';
import { keyedList } from '../../lib/keyed-list';
import { currentUser } from '../../plugins/authentication';
import { registerGrievanceExport, registerGrievanceReportExport } from './export';
import { findDriversNeedingAction, grievanceReport, indianMonth } from './reports';
import { deskRuleRoutes } from './desk-rule-routes';
import { createHoliday, deleteHoliday, findHolidays } from './holidays';
import { grievanceLoggedMail, grievanceResolvedMail } from './mails';
import { findGrievanceOfficer, setGrievanceOfficer } from './officer';
import {
  addGrievanceComment,
  createGrievance,
  findGrievance,
  findGrievances,
  summariseGrievances,
  updateGrievance,
} from './repository';

export type GrievanceRoutesOptions = { db: Db; objectStore: ObjectStore; mail?: Config['mail'] };

/** The largest file a grievance takes: a phone's photo or a scanned receipt. */
const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
const UPLOADS_PER_MINUTE = 60;
const mediaTypeOf = (header: string | undefined) => header?.split(';')[0]?.trim().toLowerCase() ?? '';

const TAGS = ['grievances'];

/**
 * The grievance desk: complaints with the guidelines' deadline (3 working days), the holidays that
 * move it, and the grievance officer. The complainant is mailed after the answer, so that a slow
 * mail server never holds a staff member's screen.
 */
export const grievanceRoutes: FastifyPluginAsyncZod<GrievanceRoutesOptions> = async (
  app,
  { db, objectStore, mail },
) => {
  const mailer = createMailer({
    smtpUrl: mail?.smtpUrl,
    from: mail?.from ?? 'Book-My-ETaxi <no-reply@bookmyetaxi.in>',
    logger: app.log,
  });
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(pending);
    mailer.close();
  });
  const sendLater = (message: Mail | null) => {
    if (!message) return;
    const sending = mailer
      .send(message)
      .catch((error: unknown) => app.log.warn({ err: error, to: message.to }, 'grievance mail not sent'))
      .finally(() => pending.delete(sending));
    pending.add(sending);
  };
  app.addContentTypeParser([...GRIEVANCE_ATTACHMENT_TYPES], { parseAs: 'buffer' }, (_request, body, done) =>
    done(null, body),
  );
  const callerOf = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { id: user.id, role: user.role, requestId: request.id };
  };

  app.get(
    '/grievances',
    {
      config: { access: ['grievances', 'list'] },
      schema: {
        tags: TAGS,
        summary: "The caller's grievances, soonest deadline first unless sorted otherwise",
        description:
          '`q` finds a number, a complainant (name, phone, email) or words of the description; ' +
          '`status=unresolved` keeps those still running against their deadline; `clock` those ' +
          'overdue, due within a day or on time. Pass `nextCursor` back as `cursor` for the next page.',
        querystring: grievanceListQuerySchema,
        response: { 200: grievanceListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await findGrievances(db, callerOf(request), request.query);
      return keyedList(page.grievances, page);
    },
  );

  app.get(
    '/grievances/summary',
    {
      config: { access: ['grievances', 'list'] },
      schema: {
        tags: TAGS,
        summary: "How many of the caller's grievances are unresolved, due within a day and overdue",
        response: { 200: grievanceSummaryResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ data: await summariseGrievances(db, callerOf(request)) }),
  );

  app.post(
    '/grievances',
    {
      config: { access: ['grievances', 'create'] },
      schema: {
        tags: TAGS,
        summary: 'Log a grievance from a call or a mail; audited, the complainant mailed its number',
        description:
          'A trip names its driver and customer. Staff other than admins name a trip or a driver of ' +
          'theirs. `receivedAt` defaults to now and is never in the future; the deadline is 23:59 IST ' +
          'of the third working day after it (Sundays and listed holidays do not count).',
        body: createGrievanceBodySchema,
        response: { 201: grievanceResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const grievance = await createGrievance(db, callerOf(request), request.body);
      sendLater(grievanceLoggedMail(grievance));
      return reply.status(201).send({ data: grievance });
    },
  );

  app.get(
    '/grievances/officer',
    {
      config: { access: ['grievances', 'officer'] },
      schema: {
        tags: TAGS,
        summary: 'The admin mailed of grievances due within a day and overdue',
        response: { 200: grievanceOfficerResponseSchema, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const { language: _language, ...officer } = await findGrievanceOfficer(db);
      return { data: officer };
    },
  );

  app.put(
    '/grievances/officer',
    {
      config: { access: ['grievances', 'officer'] },
      schema: {
        tags: TAGS,
        summary: 'Name the grievance officer (an active admin, by email), or nobody; audited',
        body: grievanceOfficerBodySchema,
        response: { 200: grievanceOfficerResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { language: _language, ...officer } = await setGrievanceOfficer(
        db,
        callerOf(request),
        request.body.email,
      );
      return { data: officer };
    },
  );

  app.get(
    '/grievances/:id',
    {
      config: { access: ['grievances', 'view'] },
      schema: {
        tags: TAGS,
        summary: 'One grievance, with its steps and comments (oldest first)',
        params: idParamSchema,
        response: { 200: grievanceDetailResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const grievance = await findGrievance(db, callerOf(request), request.params.id);
      return { data: { ...grievance, attachments: await findAttachments(db, grievance.id) } };
    },
  );

  app.post(
    '/grievances/:id/attachments',
    {
      config: {
        access: ['grievances', 'update'],
        rateLimit: { max: UPLOADS_PER_MINUTE, timeWindow: '1 minute' },
        openapi: { requestBody: ATTACHMENT_CONTENT },
      },
      bodyLimit: ATTACHMENT_MAX_BYTES,
      schema: {
        tags: TAGS,
        summary: 'Attach a file the complainant sent (raw JPEG, PNG or PDF body, at most 5 MB); audited',
        description:
          'The name goes in `X-File-Name` (percent-encoded). An image is checked by its content and ' +
          'stored again without metadata, as document images are; a PDF must be one, without scripts ' +
          'or embedded files. At most 10 files per grievance (409).',
        params: idParamSchema,
        response: {
          201: grievanceAttachmentResponseSchema,
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429),
        },
      },
      // Before the body is read: a clear answer without receiving megabytes first.
      preParsing: async (request, _reply, payload) => {
        if (!isAttachmentType(mediaTypeOf(request.headers['content-type']))) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.grievanceAttachmentType());
        }
        if (Number(request.headers['content-length']) > ATTACHMENT_MAX_BYTES) {
          throw new AppError(
            'PAYLOAD_TOO_LARGE',
            m.grievanceAttachmentTooLarge({ megabytes: ATTACHMENT_MAX_BYTES / 1024 / 1024 }),
          );
        }
        return payload;
      },
    },
    async (request, reply) => {
      const declared = mediaTypeOf(request.headers['content-type']);
      if (!isAttachmentType(declared))
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', m.grievanceAttachmentType());
      const name = request.headers['x-file-name'];
      const attachment = await addAttachment(db, objectStore, callerOf(request), {
        grievanceId: request.params.id,
        body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        contentType: declared,
        fileName: typeof name === 'string' ? name : undefined,
      });
      return reply.status(201).send({ data: attachment });
    },
  );

  app.get(
    '/grievances/:id/attachments/:attachmentId',
    {
      config: { access: ['grievances', 'view'], openapi: { responses: { 200: ATTACHMENT_CONTENT } } },
      schema: {
        tags: TAGS,
        summary: "One of a grievance's files, as a download",
        params: grievanceAttachmentParamsSchema,
        response: { 200: z.unknown(), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const file = await readAttachment(
        db,
        objectStore,
        callerOf(request),
        request.params.id,
        request.params.attachmentId,
      );
      const inline = file.contentType !== 'application/pdf';
      return reply
        .header('content-type', file.contentType)
        .header(
          'content-disposition',
          `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.body);
    },
  );

  app.patch(
    '/grievances/:id',
    {
      config: { access: ['grievances', 'update'] },
      schema: {
        tags: TAGS,
        summary: 'Take a step (with a note), or change the category or priority; audited',
        description:
          'Steps: open → in progress, waiting for the complainant or resolved; resolved → closed or ' +
          'reopened; closed → reopened. Resolving needs the `resolution` the complainant is mailed. ' +
          'A reopened grievance runs against a new deadline from that moment.',
        params: idParamSchema,
        body: updateGrievanceBodySchema,
        response: { 200: grievanceResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const change = await updateGrievance(db, callerOf(request), request.params.id, request.body);
      if (change.resolved) sendLater(grievanceResolvedMail(change.grievance));
      return { data: change.grievance };
    },
  );

  app.post(
    '/grievances/:id/comments',
    {
      config: { access: ['grievances', 'comment'] },
      schema: {
        tags: TAGS,
        summary: 'A comment inside the team (never sent to the complainant)',
        params: idParamSchema,
        body: grievanceCommentBodySchema,
        response: { 201: grievanceEventResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const event = await addGrievanceComment(db, callerOf(request), request.params.id, request.body.text);
      return reply.status(201).send({ data: event });
    },
  );

  app.get(
    '/holidays',
    {
      config: { access: ['holidays', 'list'] },
      schema: {
        tags: TAGS,
        summary: "A year's holidays (this year in India unless named), national and each state's",
        querystring: holidayListQuerySchema,
        response: { 200: holidayListResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const year =
        request.query.year ?? Number(new Date(Date.now() + 330 * 60_000).toISOString().slice(0, 4));
      return { data: await findHolidays(db, year) };
    },
  );

  app.post(
    '/holidays',
    {
      config: { access: ['holidays', 'create'] },
      schema: {
        tags: TAGS,
        summary: 'List a holiday (national without a state); the deadlines it falls within move; audited',
        body: createHolidayBodySchema,
        response: { 201: holidayResponseSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const holiday = await createHoliday(db, callerOf(request), request.body);
      return reply.status(201).send({ data: holiday });
    },
  );

  app.delete(
    '/holidays/:id',
    {
      config: { access: ['holidays', 'delete'] },
      schema: {
        tags: TAGS,
        summary: 'Remove a holiday; the deadlines it moved move back; audited',
        params: idParamSchema,
        response: { 200: messageResponseSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await deleteHoliday(db, callerOf(request), request.params.id);
      return { data: { message: m.holidayRemoved() } };
    },
  );

  app.get(
    '/grievances/report',
    {
      config: { access: ['grievances', 'list'] },
      schema: {
        tags: TAGS,
        summary:
          "A month's grievances: received, resolved within and after the deadline, median time to resolve",
        description:
          "In all, by category and by franchise, in the caller's scope; `month` is `YYYY-MM` (this month in India by default).",
        querystring: grievanceMonthQuerySchema,
        response: { 200: grievanceReportResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      data: await grievanceReport(db, callerOf(request), request.query.month ?? indianMonth()),
    }),
  );

  app.get(
    '/grievances/drivers-needing-action',
    {
      config: { access: ['grievances', 'list'] },
      schema: {
        tags: TAGS,
        summary: "Drivers whose complaints or ratings below 3 stars reach the shares their state's rules set",
        description:
          'By the rules of each driver’s state (`GET /api/desk-rules`; Delhi’s 15% and 25% by default) ' +
          'in effect on the month’s last day. With the figures: completed rides, complaints received, ' +
          'ratings and ratings below 3 stars in the month (`YYYY-MM`, this month in India by default); `driverId` asks about one driver.',
        querystring: driversNeedingActionQuerySchema,
        response: { 200: driversNeedingActionResponseSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const month = request.query.month ?? indianMonth();
      const found = await findDriversNeedingAction(db, callerOf(request), month, request.query.driverId);
      return { data: { month, drivers: found } };
    },
  );

  registerGrievanceExport(app, db);
  registerGrievanceReportExport(app, db);
  await app.register(deskRuleRoutes, { db });
};
