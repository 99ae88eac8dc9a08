import { z } from 'zod';
import { envelope, listTotalShape } from './common';
import { CUSTOMER_SORTS, sortShape } from './sort';

/** A customer; email and phone number are personal data that only admins receive. */
export const customerSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string().nullable(),
  phoneNumber: z.string().nullable(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional(),
  ...sortShape(CUSTOMER_SORTS),
});

/** The spec's `{ data: { id: customer } }` in list order (by name), with the next page's cursor. */
export const customerListResponseSchema = z.object({
  data: z.record(z.string(), customerSchema),
  nextCursor: z.string().nullable(),
  ...listTotalShape,
});

export const customerRatingSchema = z.object({
  id: z.uuid(),
  customerName: z.string().nullable(),
  description: z.string().nullable(),
  rating: z.number().int().min(1).max(5).nullable(),
  date: z.string(),
});

export const customerDetailResponseSchema = envelope(
  customerSchema.extend({
    ratings: z.array(customerRatingSchema),
    rating: z.object({ average: z.number().nullable(), count: z.number().int() }),
  }),
);
