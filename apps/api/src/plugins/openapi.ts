import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Content = Record<string, { schema: Record<string, unknown> }>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the OpenAPI document says of bodies that are not JSON (images, event streams). */
    openapi?: { requestBody?: Content; responses?: Record<number, Content> };
  }
}

const BINARY = { schema: { type: 'string', format: 'binary' } };
/** A JPEG or PNG image, as document images are sent and answered. */
export const IMAGE_CONTENT: Content = { 'image/jpeg': BINARY, 'image/png': BINARY };
/** An image or a PDF, as grievances' attachments are sent and answered. */
export const ATTACHMENT_CONTENT: Content = { ...IMAGE_CONTENT, 'application/pdf': BINARY };
/** A stream of server-sent events. */
export const EVENT_STREAM_CONTENT: Content = { 'text/event-stream': { schema: { type: 'string' } } };
/** A CSV file, as list exports answer it. */
export const CSV_CONTENT: Content = { 'text/csv': { schema: { type: 'string' } } };

const ERROR_BODY = { $ref: '#/components/schemas/ErrorBody' };

/**
 * `GET /api/drivers/driver/:id` is named getDriversDriverById, `GET /api/trips/export.csv`
 * getTripsExportCsv: stable, unique, readable.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split('/')
    .filter(Boolean)
    .flatMap((part) => (part.startsWith(':') ? ['by', part.slice(1)] : part.split(/[-_.]/).filter(Boolean)));
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return `${method.toLowerCase()}${name}`;
}

/**
 * The zod schemas' transform, and what zod cannot say: each operation's id, the 429 answer of the
 * limit every /api route is under, and the bodies that are images or event streams.
 */
export const openapiTransform: SwaggerTransform = (args) => {
  const transformed = jsonSchemaTransform(args as never) as { schema: Record<string, unknown>; url: string };
  const schema: Record<string, unknown> = { ...transformed.schema };
  const method = [args.route.method].flat()[0] ?? 'GET';
  schema.operationId ??= operationIdOf(method, args.url);
  const responses = { ...((schema.response as Record<string, unknown> | undefined) ?? {}) };
  if (args.url.startsWith('/api/')) {
    responses[429] ??= {
      description: 'Too many requests from this address (see Retry-After)',
      ...ERROR_BODY,
    };
  }
  const doc = args.route.config?.openapi;
  if (doc?.requestBody) schema.body = { content: doc.requestBody };
  for (const [status, content] of Object.entries(doc?.responses ?? {})) {
    const described = responses[status] as { description?: string } | undefined;
    responses[status] = { description: described?.description ?? 'OK', content };
  }
  schema.response = responses;
  return { schema, url: transformed.url } as never;
};
