// Kept apart from the zod schemas: the web app's forms use these without loading zod.

/** Longest display name of an account (a person, a dealer or a franchise). */
export const ACCOUNT_NAME_MAX_LENGTH = 100;

/** The fields the spec's creation forms require, in the order the forms show them. */
export const REQUIRED_ACCOUNT_FIELDS = ['name', 'email', 'password', 'state'] as const;
export type AccountField = (typeof REQUIRED_ACCOUNT_FIELDS)[number];

/** The required fields left empty (a name or email of spaces counts as empty). */
export function missingAccountFields(input: Partial<Record<AccountField, string | null | undefined>>) {
  return REQUIRED_ACCOUNT_FIELDS.filter((field) => {
    const value = input[field];
    return !value || (field !== 'password' && value.trim() === '');
  });
}
