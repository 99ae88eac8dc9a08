import { AppError } from '@bmet/shared/errors';

export const NUL_MESSAGE = 'Must not contain the NUL character.';
export const SURROGATE_MESSAGE = 'Must be valid Unicode text (it holds a broken character).';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored as PostgreSQL text, or null when it can: text cannot hold U+0000,
 * and a lone UTF-16 surrogate has no UTF-8 form (drivers either fail on it or store U+FFFD).
 */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(value)) return SURROGATE_MESSAGE;
  return null;
}

/**
 * A value carrying a character PostgreSQL text cannot hold is refused with a 400 before it
 * reaches the database. `message` is the error text (by default the field's name and the problem,
 * as validation errors read).
 */
export function refuseNul(field: string, value: string | undefined, message?: string): void {
  const problem = value === undefined ? null : textProblem(value);
  if (problem) {
    throw new AppError('VALIDATION', message ?? `${field}: ${problem}`, {
      fieldErrors: { [field]: [problem] },
    });
  }
}

const MAX_DEPTH = 64;

/** The path and problem of the first string or key in a parsed value that text cannot hold. */
export function findTextProblem(
  value: unknown,
  path = '',
  depth = 0,
): { field: string; problem: string } | null {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { field: path || '_', problem } : null;
  }
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  // Bytes are no text (an uploaded image): walking a 4 MB body as an object made four million
  // entries, held the event loop for seconds and the memory at gigabytes.
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return null;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    const keyProblem = textProblem(key);
    if (keyProblem) return { field: childPath, problem: keyProblem };
    const found = findTextProblem(child, childPath, depth + 1);
    if (found) return found;
  }
  return null;
}
