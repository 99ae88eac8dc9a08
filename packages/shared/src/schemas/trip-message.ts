import { z } from 'zod';

/** One message of the chat between a trip's customer and driver, in the order they were written. */
export const tripMessageSchema = z.object({
  id: z.uuid(),
  sender: z.string(),
  message: z.string(),
});
export type TripMessage = z.infer<typeof tripMessageSchema>;
export const tripMessagesResponseSchema = z.object({ data: z.array(tripMessageSchema) });
