import { AppError } from '@bmet/shared/errors';

export const NUL_MESSAGE = 'Must not contain the NUL character.';

/**
 * PostgreSQL text cannot hold U+0000, so a query bound to such a value fails: a value carrying it
 * is refused with a 400 before it reaches the database. `message` is the error text (by default
 * the field's name and NUL_MESSAGE, as validation errors read).
 */
export function refuseNul(
  field: string,
  value: string | undefined,
  message = `${field}: ${NUL_MESSAGE}`,
): void {
  if (value?.includes('\u0000')) {
    throw new AppError('VALIDATION', message, { fieldErrors: { [field]: [NUL_MESSAGE] } });
  }
}
