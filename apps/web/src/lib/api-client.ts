import type { z } from 'zod';
import type { ErrorBody } from '@bmet/shared/errors';
import { errorBodySchema } from '@bmet/shared/errors';
import { MESSAGES } from '@bmet/shared/messages';
import { clearSession, readSession } from './session';

/** A failed API call, carrying the server's one error body (shown as `response.data.error`). */
export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly response: { status: number; data: ErrorBody };

  constructor(status: number, body: ErrorBody) {
    super(body.error);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.response = { status, data: body };
  }

  /** From a failed response's body: the one error body when it is one, a generic message otherwise. */
  static fromBody(status: number, body: unknown): ApiError {
    const parsed = errorBodySchema.safeParse(body);
    return new ApiError(
      status,
      parsed.success ? parsed.data : { error: MESSAGES.internal, code: 'INTERNAL' },
    );
  }
}

/** Where a 401 sends the browser: the spec's '/', after clearing session storage. */
export function handleUnauthorized(): void {
  clearSession();
  window.location.replace('/');
}

/**
 * fetch() under /api with the bearer token from session storage. A 401 on an authenticated call
 * ends the session; an unreachable server becomes an ApiError with a message for people.
 */
export async function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const session = readSession();
  const headers = new Headers(init.headers);
  if (session) headers.set('authorization', `Bearer ${session.idToken}`);
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, {
      error: 'The server cannot be reached. Check your connection.',
      code: 'INTERNAL',
    });
  }
  if (response.status === 401 && session) handleUnauthorized();
  return response;
}

type RequestOptions = { body?: unknown; signal?: AbortSignal };

/** Calls the API and parses the answer with the shared schema; failures throw ApiError. */
export async function apiRequest<S extends z.ZodType>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  schema: S | null,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await authorizedFetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) throw ApiError.fromBody(response.status, await response.json().catch(() => null));
  if (response.status === 204 || !schema) return undefined as z.infer<S>;
  return schema.parse(await response.json());
}
