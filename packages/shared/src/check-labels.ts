import type { CheckStatus, DriverCheckKind } from './driver-check-rules';
import { m } from './paraglide/messages.js';

/** The name of a kind of driver check, in the current language. */
export const CHECK_KIND_LABELS: Record<DriverCheckKind, () => string> = {
  police_verification: m.checkKindPolice,
  medical_fitness: m.checkKindMedical,
  induction_training: m.checkKindInduction,
  refresher_training: m.checkKindRefresher,
  remedial_training: m.checkKindRemedial,
  health_insurance: m.checkKindHealth,
  term_insurance: m.checkKindTerm,
};

/** What a check's status is called, in the current language. */
export const CHECK_STATUS_LABELS: Record<CheckStatus, () => string> = {
  valid: m.checkStatusValid,
  missing: m.checkStatusMissing,
  failed: m.checkStatusFailed,
  expired: m.checkStatusExpired,
  insufficient: m.checkStatusInsufficient,
  due: m.checkStatusDue,
  not_due: m.checkStatusNotDue,
};
