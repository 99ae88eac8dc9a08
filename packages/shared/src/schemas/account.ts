import { z } from 'zod';
import { ACCOUNT_SORTS, sortShape } from './sort';
import { LANGUAGES, STATES, type State } from '../constants';
import { m } from '../paraglide/messages.js';
import { currentUserSchema } from './auth';
import { emailSchema, envelope, listTotalShape } from './common';
import { ACCOUNT_NAME_MAX_LENGTH, missingAccountFields } from '../account-fields';

const isState = (value: string): value is State => (STATES as readonly string[]).includes(value);

/**
 * The spec's creation payload for a city dealer or a franchise: uuid, name, email, state,
 * password, currentUser. The creator is always the signed-in caller: `uuid` and `currentUser`
 * are accepted for the spec's clients and ignored. Any empty field answers the spec's
 * 'Please fill in all fields'; the password rules are checked on the server.
 */
export const createAccountBodySchema = z
  .object({
    uuid: z.unknown().optional().describe("Accepted for the spec's clients and ignored."),
    currentUser: z
      .unknown()
      .optional()
      .describe('Ignored: the creator is taken from the ID token, never from the body.'),
    name: z.string().max(ACCOUNT_NAME_MAX_LENGTH).optional(),
    email: z.string().max(254).optional(),
    password: z.string().max(1024).optional(),
    state: z.string().max(64).optional(),
    /** Franchises created by an admin: the city dealer of the same state it works under. */
    dealerId: z.uuid().nullish(),
  })
  .superRefine((body, ctx) => {
    if (missingAccountFields(body).length > 0) {
      ctx.addIssue({ code: 'custom', message: m.fillAllFields(), path: [] });
      return;
    }
    if (!emailSchema.safeParse(body.email).success) {
      ctx.addIssue({ code: 'custom', message: m.enterValidEmail(), path: ['email'] });
    }
    if (!isState(body.state!.trim().toLowerCase())) {
      ctx.addIssue({ code: 'custom', message: m.chooseState(), path: ['state'] });
    }
  })
  .transform((body) => ({
    name: body.name!.trim(),
    email: emailSchema.parse(body.email),
    password: body.password!,
    state: body.state!.trim().toLowerCase() as State,
    dealerId: body.dealerId ?? null,
  }));
export type CreateAccountBody = z.input<typeof createAccountBodySchema>;

export const createAccountResponseSchema = envelope(z.object({ message: z.string(), uid: z.uuid() }));

/** Timestamps travel as ISO 8601 strings. */
const timestamp = z.string();

/** A city dealer as the list shows it, with how many franchises and drivers work under it. */
export const cityDealerSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  state: z.enum(STATES).nullable(),
  createdAt: timestamp,
  disabled: z.boolean(),
  franchiseCount: z.number().int(),
  driverCount: z.number().int(),
});
export type CityDealer = z.infer<typeof cityDealerSchema>;

/** A franchise as the list shows it: the city dealer it works under and its drivers. */
export const franchiseSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  state: z.enum(STATES).nullable(),
  createdAt: timestamp,
  disabled: z.boolean(),
  dealerId: z.uuid().nullable(),
  dealerName: z.string().nullable(),
  driverCount: z.number().int(),
});
export type Franchise = z.infer<typeof franchiseSchema>;

const listFields = {
  /** Searches name and email, case-insensitively. */
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(ACCOUNT_SORTS),
};

/**
 * The body of the spec's `POST /city_dealer/getcitydealers`: its `uid` is accepted and ignored;
 * paging, search and a state filter (the franchise form's dealer picker) are ours.
 */
const cityDealerListFields = z.object({
  uid: z.unknown().optional().describe("Accepted for the spec's clients and ignored."),
  ...listFields,
  state: z.enum(STATES, { error: () => m.chooseState() }).optional(),
});
export const cityDealerListBodySchema = cityDealerListFields
  .nullish()
  .transform((body) => body ?? cityDealerListFields.parse({}));
export type CityDealerListBody = z.input<typeof cityDealerListBodySchema>;

/** The city dealer list's filters as the query of its CSV export (no paging: every row). */
export const cityDealerExportQuerySchema = cityDealerListFields.omit({
  uid: true,
  limit: true,
  cursor: true,
});

export const franchiseListQuerySchema = z.object(listFields);

/** The sort of `POST /api/city_dealer/getcitydealers` in its query string, as every list takes it. */
export const accountSortQuerySchema = z.object(sortShape(ACCOUNT_SORTS));
export type FranchiseListQuery = z.input<typeof franchiseListQuerySchema>;

/**
 * Lists answer the spec's `{ data: { id: record } }`, keyed by id in list order (newest first by
 * createdAt), with the cursor of the next page and the count of all matching records.
 */
export const cityDealerListResponseSchema = z.object({
  data: z.record(z.string(), cityDealerSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});
export type CityDealerListResponse = z.infer<typeof cityDealerListResponseSchema>;

export const franchiseListResponseSchema = z.object({
  data: z.record(z.string(), franchiseSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});
export type FranchiseListResponse = z.infer<typeof franchiseListResponseSchema>;

const editFields = {
  name: z
    .string()
    .trim()
    .min(1, { error: () => m.enterName() })
    .max(ACCOUNT_NAME_MAX_LENGTH)
    .optional(),
  state: z.enum(STATES, { error: () => m.chooseState() }).optional(),
  /** A disabled account cannot sign in and its live tokens stop working. */
  disabled: z.boolean().optional(),
};
const somethingToChange = (body: Record<string, unknown>) =>
  Object.values(body).some((value) => value !== undefined);

export const updateCityDealerBodySchema = z
  .object(editFields)
  .refine(somethingToChange, { error: () => m.nothingToChange() });
export type UpdateCityDealerBody = z.input<typeof updateCityDealerBodySchema>;

export const updateFranchiseBodySchema = z
  .object({
    ...editFields,
    /** Admins only: the city dealer (of the franchise's state) it works under, or null for none. */
    dealerId: z.uuid().nullable().optional(),
  })
  .refine(somethingToChange, { error: () => m.nothingToChange() });
export type UpdateFranchiseBody = z.input<typeof updateFranchiseBodySchema>;

export const cityDealerResponseSchema = envelope(cityDealerSchema);
export const franchiseResponseSchema = envelope(franchiseSchema);

/** The profile's one editable field. */
export const updateProfileBodySchema = z.object({
  displayName: z
    .string()
    .trim()
    .min(1, { error: () => m.enterDisplayName() })
    .max(ACCOUNT_NAME_MAX_LENGTH),
});

/** The language a user reads the console in, chosen in the header (every role). */
export const updateLanguageBodySchema = z.object({
  language: z.enum(LANGUAGES),
});
export type UpdateProfileBody = z.input<typeof updateProfileBodySchema>;
export const profileResponseSchema = envelope(currentUserSchema);
