/** What a staff member's inbox holds (decision 035). */
export const NOTIFICATION_KINDS = [
  'sos',
  'grievance_due_soon',
  'grievance_overdue',
  'document_expiring',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The records a notification leads to. */
export const NOTIFICATION_RECORDS = ['sos', 'grievances', 'drivers'] as const;
export type NotificationRecord = (typeof NOTIFICATION_RECORDS)[number];

/** The newest notifications the inbox shows at once; older ones page in. */
export const INBOX_PAGE = 20;
