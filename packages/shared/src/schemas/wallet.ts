import { z } from 'zod';

const timestamp = z.string();

/** The kinds of wallet entry the driver app wrote. */
export const WALLET_ENTRY_KINDS = [
  'Recharge',
  'Ride Accepted',
  'Money Sent',
  'Money Received',
  '5 Star Reward',
  'Referral Bonus',
] as const;

export const walletQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(500).optional(),
});
export type WalletQuery = z.input<typeof walletQuerySchema>;

/** One entry of a driver's wallet: rupees in (credit) or out, and the balance after it. */
export const walletEntrySchema = z.object({
  id: z.uuid(),
  /** One of WALLET_ENTRY_KINDS, or what an older app wrote. */
  kind: z.string(),
  amount: z.number(),
  credit: z.boolean(),
  balanceAfter: z.number().nullable(),
  orderId: z.string().nullable(),
  createdAt: timestamp,
});
export type WalletEntry = z.infer<typeof walletEntrySchema>;

/** GET /api/drivers/driver/{id}/wallet: the balance and a page of entries, newest first. */
export const walletResponseSchema = z.object({
  data: z.object({ balance: z.number().nullable(), entries: z.array(walletEntrySchema) }),
  nextCursor: z.string().nullable(),
});
export type WalletResponse = z.infer<typeof walletResponseSchema>;
