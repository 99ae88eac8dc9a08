import { m } from './paraglide/messages.js';
import type { AuditAction, AuditRecordType } from './audit-constants';

const RECORD_TYPES: Record<AuditRecordType, () => string> = {
  drivers: m.auditTypeDrivers,
  'driver-documents': m.auditTypeDriverDocuments,
  'driver-device-tokens': m.auditTypeDriverDeviceTokens,
  'trip-feedback': m.auditTypeTripFeedback,
  franchises: m.auditTypeFranchises,
  'city-dealers': m.auditTypeCityDealers,
  passwords: m.auditTypePasswords,
  profile: m.auditTypeProfile,
  'car-rates': m.auditTypeCarRates,
  'fare-rules': m.auditTypeFareRules,
  vehicles: m.auditTypeVehicles,
  'second-factor': m.auditTypeSecondFactor,
  'firebase-link': m.auditTypeFirebaseLink,
  trips: m.auditTypeTrips,
  customers: m.auditTypeCustomers,
  grievances: m.auditTypeGrievances,
  holidays: m.auditTypeHolidays,
  settings: m.auditTypeSettings,
  sos: m.auditTypeSos,
};

const ACTIONS: Record<AuditAction, () => string> = {
  create: m.auditActionCreate,
  update: m.auditActionUpdate,
  delete: m.auditActionDelete,
  restore: m.auditActionRestore,
  assign: m.auditActionAssign,
  upload: m.auditActionUpload,
  review: m.auditActionReview,
  issue: m.auditActionIssue,
  revoke: m.auditActionRevoke,
  reset: m.auditActionReset,
  reread: m.auditActionReread,
};

/** A kind of record in the current language; one the console does not know yet as written. */
export const recordTypeLabel = (type: string) => RECORD_TYPES[type as AuditRecordType]?.() ?? type;

/** An action in the current language; one the console does not know yet as written. */
export const actionLabel = (action: string) => ACTIONS[action as AuditAction]?.() ?? action;
