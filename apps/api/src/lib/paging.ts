import type { z } from 'zod';
import { AppError } from '@bmet/shared/errors';
import { MESSAGES } from '@bmet/shared/messages';

/**
 * Keyset paging helpers. A cursor is the sort key of the last row of a page, as base64url JSON:
 * opaque to clients, checked against a schema when it comes back.
 */

export function encodeCursor(key: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

/** The key in a cursor, or a 400 'Invalid cursor.' for anything this API did not hand out. */
export function decodeCursor<T extends z.ZodType>(cursor: string, schema: T): z.output<T> {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new AppError('VALIDATION', MESSAGES.invalidCursor);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new AppError('VALIDATION', MESSAGES.invalidCursor);
  return result.data;
}

/**
 * A timestamp as PostgreSQL writes it with `to_char(... 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`: full
 * microseconds, so that a cursor never falls between two rows that a JavaScript Date (milliseconds)
 * would see as equal.
 */
export const CURSOR_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** User text for a LIKE pattern: %, _ and the escape character itself match literally. */
export function escapeLikePattern(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
