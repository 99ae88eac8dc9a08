import type { z } from 'zod';
import type { ErrorBody } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { currentLanguage } from './language';
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
    return new ApiError(status, isErrorBody(body) ? body : { error: m.internal(), code: 'INTERNAL' });
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null) return false;
  const { error, code, fieldErrors } = body as Record<string, unknown>;
  return (
    typeof error === 'string' &&
    typeof code === 'string' &&
    (fieldErrors === undefined || (typeof fieldErrors === 'object' && fieldErrors !== null))
  );
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
  // Error and validation messages come back in the language of the screen.
  headers.set('accept-language', currentLanguage());
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { ...init, headers });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, { error: m.serverUnreachable(), code: 'INTERNAL' });
  }
  if (response.status === 401 && session) handleUnauthorized();
  return response;
}

type RequestOptions = { body?: unknown; signal?: AbortSignal };

/**
 * Calls the API; failures throw ApiError. The answer is typed by the shared response schema `S`.
 * It is not parsed again here: the server serializes every answer through that same schema, and
 * leaving zod out of the browser's first load keeps the console fast on a phone (decision 009).
 */
export async function apiRequest<S extends z.ZodType | undefined = undefined>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
): Promise<S extends z.ZodType ? z.output<S> : undefined> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await authorizedFetch(path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  if (!response.ok) throw ApiError.fromBody(response.status, await response.json().catch(() => null));
  if (response.status === 204) return undefined as never;
  return (await response.json()) as never;
}
