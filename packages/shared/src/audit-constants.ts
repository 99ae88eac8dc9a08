/** What the audit trail records: kept apart from constants.ts, which every screen loads. */

/** Kinds of record the audit trail names, as the API writes them into audit_log.resource. */
export const AUDIT_RECORD_TYPES = [
  'drivers',
  'driver-documents',
  'driver-device-tokens',
  'trip-feedback',
  'franchises',
  'city-dealers',
  'passwords',
  'profile',
  'car-rates',
  'fare-rules',
  'vehicles',
  'second-factor',
  'firebase-link',
  'trips',
  'customers',
  'grievances',
  'holidays',
  'settings',
  'sos',
] as const;
export type AuditRecordType = (typeof AUDIT_RECORD_TYPES)[number];

/** What was done, as the API writes it into audit_log.action. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'restore',
  'assign',
  'upload',
  'review',
  'issue',
  'revoke',
  'reset',
  'reread',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];
