/** The header search's shortest and longest query, once trimmed (zod-free: the web app reads it). */
export const SEARCH_QUERY_LENGTH = { min: 2, max: 100 } as const;

/** How many matches of each kind the header search answers at most. */
export const SEARCH_GROUP_LIMIT = 5;
