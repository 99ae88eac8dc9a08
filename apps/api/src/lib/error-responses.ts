import { errorBodySchema } from '@bmet/shared/errors';

/**
 * The error answers a route declares, each with the one error body, for its response schema and
 * the OpenAPI document: `{ 200: answer, ...errorResponses(400, 401, 403) }`.
 */
export function errorResponses<const Status extends number>(
  ...statuses: Status[]
): Record<Status, typeof errorBodySchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<
    Status,
    typeof errorBodySchema
  >;
}
