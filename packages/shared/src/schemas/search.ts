import { z } from 'zod';
import { STATES } from '../constants';
import { m } from '../paraglide/messages.js';
import { SEARCH_QUERY_LENGTH } from '../search-limits';
import { envelope } from './common';

const queryText = z
  .string({ error: () => m.searchQueryLength(SEARCH_QUERY_LENGTH) })
  .trim()
  .min(SEARCH_QUERY_LENGTH.min, { error: () => m.searchQueryLength(SEARCH_QUERY_LENGTH) })
  .max(SEARCH_QUERY_LENGTH.max, { error: () => m.searchQueryLength(SEARCH_QUERY_LENGTH) });

/** GET /api/search: one text, looked for in every kind of record the caller may list. */
export const searchQuerySchema = z.object({ q: queryText });

/** A trip found: its title (the customer's name), when it was booked and where it went. */
export const tripMatchSchema = z.object({
  id: z.uuid(),
  title: z.string(),
  createdAt: z.string(),
  pickup: z.string().nullable(),
  destination: z.string().nullable(),
});

/** A driver found, with what staff tell drivers apart by: phone and vehicle number. */
export const driverMatchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  phoneNumber: z.string().nullable(),
  vehicleNumber: z.string().nullable(),
});

/** A customer found (admins only): name, phone and email. */
export const customerMatchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  phoneNumber: z.string().nullable(),
  email: z.string().nullable(),
});

/** A city dealer or franchise found: name, email and state. */
export const accountMatchSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  state: z.enum(STATES).nullable(),
});

/**
 * The first matches of each kind, in each list's own order; a kind the caller may not list is
 * absent (a city dealer gets no customers or cityDealers, a franchise only trips and drivers).
 */
export const searchResponseSchema = envelope(
  z.object({
    trips: z.array(tripMatchSchema).optional(),
    drivers: z.array(driverMatchSchema).optional(),
    customers: z.array(customerMatchSchema).optional(),
    cityDealers: z.array(accountMatchSchema).optional(),
    franchises: z.array(accountMatchSchema).optional(),
  }),
);
export type SearchResults = z.infer<typeof searchResponseSchema>['data'];
export type SearchKind = keyof SearchResults;
