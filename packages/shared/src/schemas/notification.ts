import { z } from 'zod';
import { m } from '../paraglide/messages.js';
import { NOTIFICATION_KINDS, NOTIFICATION_RECORDS } from '../notification-rules';
import { envelope } from './common';

/**
 * One notification of the caller's inbox. `detail` holds what its text needs, in no language: an
 * alert's or grievance's number, a driver's name, a document's key and expiry, a deadline.
 */
export const notificationSchema = z.object({
  id: z.uuid(),
  kind: z.enum(NOTIFICATION_KINDS),
  recordType: z.enum(NOTIFICATION_RECORDS),
  recordId: z.uuid(),
  detail: z.object({
    number: z.string().optional(),
    driverName: z.string().nullable().optional(),
    person: z.string().optional(),
    dueAt: z.string().optional(),
    documentKey: z.string().optional(),
    expiresOn: z.string().optional(),
  }),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const notificationListQuerySchema = z.object({
  unread: z.enum(['true', 'false']).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

export const notificationListResponseSchema = z.object({
  data: z.array(notificationSchema),
  nextCursor: z.string().nullable(),
  /** Unread notifications in all, whatever the page. */
  unread: z.number().int(),
});

/** `PATCH /api/notifications/{id}`: read or unread again. */
export const updateNotificationBodySchema = z.strictObject({
  read: z.boolean({ error: () => m.notificationReadMissing() }),
});

export const notificationResponseSchema = envelope(notificationSchema);
export const notificationsReadResponseSchema = envelope(z.object({ read: z.number().int() }));
