import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { enterRequestLanguage } from '../infra/language';

/** Turns a validation failure into the one error body, with a message per field. */
function validationError(error: FastifyError & { validation: unknown[] }): AppError {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of error.validation as { instancePath?: string; message?: string }[]) {
    const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') || '_';
    (fieldErrors[field] ??= []).push(issue.message ?? m.invalidValue());
  }
  const first = Object.entries(fieldErrors)[0];
  const message =
    first && Object.keys(fieldErrors).length === 1 && first[1][0]
      ? first[0] === '_'
        ? first[1][0]
        : `${first[0]}: ${first[1][0]}`
      : m.validationFailed();
  return new AppError('VALIDATION', message, { fieldErrors });
}

/** Client errors of Fastify and its plugins by status: the code of ours and the words that fit it. */
const CLIENT_ERRORS: Partial<Record<number, () => AppError>> = {
  404: () => new AppError('NOT_FOUND', m.notFound()),
  408: () => new AppError('REQUEST_TIMEOUT', m.requestTimeout()),
  413: () => new AppError('PAYLOAD_TOO_LARGE', m.bodyTooLarge()),
  414: () => new AppError('URI_TOO_LONG', m.uriTooLong()),
  415: () => new AppError('UNSUPPORTED_MEDIA_TYPE', m.contentTypeNotAccepted()),
  429: () => new AppError('RATE_LIMITED', m.rateLimited()),
  431: () => new AppError('HEADERS_TOO_LARGE', m.headersTooLarge()),
};

/** Maps Fastify's own client errors (bad JSON, body too large...) onto our codes. */
function frameworkError(error: FastifyError): AppError | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('VALIDATION', m.invalidJsonBody());
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', m.bodyTooLarge());
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', m.contentTypeNotAccepted());
    default:
      break;
  }
  const status = error.statusCode ?? 0;
  if (status < 400 || status >= 500) return null;
  const known = CLIENT_ERRORS[status];
  if (known) return known();
  // Any other refusal (the static file server's 403 for a path it will not look up, a 405, a 416)
  // is a request we cannot serve as sent. Its words are ours, not the framework's English that
  // named another status ("Forbidden" beside the code VALIDATION).
  return new AppError('VALIDATION', error.code === 'FST_STATIC_FORBIDDEN_PATH' ? m.badUrl() : m.badRequest());
}

/** An answer that failed because its connection is gone (the compressed stream was cut off). */
function clientWentAway(error: FastifyError, socket: Socket | null): boolean {
  return (
    error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.code === 'ECONNRESET' || Boolean(socket?.destroyed)
  );
}

/** One error body for every failure; 5xx answers hide internals and are logged with the request id. */
export const errorsPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // Some failures (a body that cannot be read) arrive outside the request's own context.
    enterRequestLanguage(request);
    let appError: AppError | null;
    if (error instanceof AppError) appError = error;
    else if (hasZodFastifySchemaValidationErrors(error)) appError = validationError(error);
    else appError = frameworkError(error);

    if (!appError && clientWentAway(error, request.raw.socket)) {
      // Not a fault of ours: a search typed on, a tab closed. Nothing can be answered any more.
      request.log.debug({ err: error }, 'the client closed the connection before the answer was sent');
      return reply.status(499).send(new AppError('INTERNAL', m.internal()).toBody());
    }
    if (!appError) {
      request.log.error({ err: error }, 'unhandled error');
      appError = new AppError('INTERNAL', m.internal());
    } else if (appError.status >= 500) {
      request.log.error({ err: error }, 'server error');
    }
    if (appError.headers) reply.headers(appError.headers);
    return reply.status(appError.status).send(appError.toBody());
  });
});
