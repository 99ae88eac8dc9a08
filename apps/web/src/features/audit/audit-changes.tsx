import { CAR_TYPES, STATES, type CarType, type State } from '@bmet/shared/constants';
import {
  complainantKindLabel,
  grievanceCategoryLabel,
  grievancePriorityLabel,
  grievanceStatusLabel,
} from '@bmet/shared/grievance-labels';
import {
  COMPLAINANT_KINDS,
  GRIEVANCE_CATEGORIES,
  GRIEVANCE_PRIORITIES,
  GRIEVANCE_STATUSES,
} from '@bmet/shared/grievance-rules';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import {
  sosEscalationLabel,
  sosOutcomeLabel,
  sosPersonLabel,
  sosSourceLabel,
  sosStatusLabel,
} from '@bmet/shared/sos-labels';
import {
  SOS_ESCALATIONS,
  SOS_OUTCOMES,
  SOS_PERSONS,
  SOS_SOURCES,
  SOS_STATUSES,
} from '@bmet/shared/sos-rules';
import { m } from '@bmet/shared/paraglide/messages';
import { formatDateTime } from '../../lib/format';
import { LANGUAGE_NAMES, currentLanguage } from '../../lib/language';
import { rateFieldLabel } from '../../lib/rate-fields';
import classes from './audit.module.css';

/** The fields the trail records, by the words of the screens they come from. */
const FIELD_LABELS: Record<string, () => string> = {
  name: m.auditFieldLabelName,
  email: m.auditFieldLabelEmail,
  state: m.auditFieldLabelState,
  dealerId: m.auditFieldLabelDealerId,
  franchiseId: m.auditFieldLabelFranchiseId,
  displayName: m.auditFieldLabelDisplayName,
  language: m.auditFieldLabelLanguage,
  passwordChangedAt: m.auditFieldLabelPasswordChangedAt,
  deletedAt: m.auditFieldLabelDeletedAt,
  deletedBy: m.auditFieldLabelDeletedBy,
  disabled: m.auditFieldLabelDisabled,
  status: m.auditFieldLabelStatus,
  expiresOn: m.auditFieldLabelExpiresOn,
  rejectionReason: m.auditFieldLabelRejectionReason,
  reviewedAt: m.auditFieldLabelReviewedAt,
  reviewedBy: m.auditFieldLabelReviewedBy,
  uploadedAt: m.auditFieldLabelUploadedAt,
  size: m.auditFieldLabelSize,
  contentType: m.auditFieldLabelContentType,
  driverId: m.auditFieldLabelDriverId,
  registration: m.auditFieldLabelRegistration,
  vehicleNumber: m.auditFieldLabelVehicleNumber,
  make: m.auditFieldLabelMake,
  model: m.auditFieldLabelModel,
  fuel: m.auditFieldLabelFuel,
  carType: m.auditFieldLabelCarType,
  feedback: m.auditFieldLabelFeedback,
  rating: m.auditFieldLabelRating,
  check: m.auditFieldLabelCheck,
  effectiveFrom: m.auditFieldLabelEffectiveFrom,
  version: m.auditFieldLabelVersion,
  kind: m.auditFieldLabelKind,
  label: m.auditFieldLabelLabel,
  createdAt: m.auditFieldLabelCreatedAt,
  lastUsedAt: m.auditFieldLabelLastUsedAt,
  revokedAt: m.auditFieldLabelRevokedAt,
  phoneNumber: m.auditFieldLabelPhoneNumber,
  notifiedBaseFare: m.auditFieldLabelNotifiedBaseFare,
  notifiedPerKm: m.auditFieldLabelNotifiedPerKm,
  maxMultiple: m.auditFieldLabelMaxMultiple,
  minMultiple: m.auditFieldLabelMinMultiple,
  cancellationPercent: m.auditFieldLabelCancellationPercent,
  cancellationCap: m.auditFieldLabelCancellationCap,
  inductionHours: m.auditFieldLabelInductionHours,
  refresherMonths: m.auditFieldLabelRefresherMonths,
  remedialSharePercent: m.auditFieldLabelRemedialSharePercent,
  healthCover: m.auditFieldLabelHealthCover,
  termCover: m.auditFieldLabelTermCover,
  vehicleMaxAgeYears: m.auditFieldLabelVehicleMaxAgeYears,
  electricPermitExempt: m.auditFieldLabelElectricPermitExempt,
  driverShareOwnVehicle: m.auditFieldLabelDriverShareOwnVehicle,
  driverShareCompanyVehicle: m.auditFieldLabelDriverShareCompanyVehicle,
};

/**
 * A recorded field as staff read it, in the current language: a rate by its words (Base price),
 * another known field by its label, any other spelt out from its name in English ('firstRegistered'
 * reads 'First registered') and shown as recorded in another language.
 */
export function auditFieldLabel(field: string): string {
  const known = FIELD_LABELS[field];
  if (known) return known();
  const rate = rateFieldLabel(field);
  if (rate !== field) return rate;
  // Words spelt out from a name are English: another language shows the name as recorded.
  if (currentLanguage() !== 'en') return field;
  const words = field
    .replace(/_/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Named values of one kind of record ('grievances' status 'resolved'), by the words of its screens. */
function namedValues<T extends string>(values: readonly T[], label: (value: T) => string) {
  return (value: unknown) => (values.includes(value as T) ? label(value as T) : undefined);
}

const RECORD_VALUES: Record<string, Record<string, (value: unknown) => string | undefined>> = {
  grievances: {
    status: namedValues(GRIEVANCE_STATUSES, grievanceStatusLabel),
    category: namedValues(GRIEVANCE_CATEGORIES, grievanceCategoryLabel),
    priority: namedValues(GRIEVANCE_PRIORITIES, grievancePriorityLabel),
    complainantKind: namedValues(COMPLAINANT_KINDS, complainantKindLabel),
  },
  sos: {
    status: namedValues(SOS_STATUSES, sosStatusLabel),
    source: namedValues(SOS_SOURCES, sosSourceLabel),
    person: namedValues(SOS_PERSONS, sosPersonLabel),
    to: namedValues(SOS_ESCALATIONS, sosEscalationLabel),
    outcome: namedValues(SOS_OUTCOMES, sosOutcomeLabel),
  },
};

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * A recorded value as staff read it: moments in IST, yes and no, states, car types, languages and
 * a record's own named values (a grievance's status) by name, nothing as "(empty)".
 */
export function formatAuditValue(value: unknown, field = '', type = ''): string {
  if (value === null || value === undefined || value === '') return m.auditEmptyValue();
  const named = RECORD_VALUES[type]?.[field]?.(value);
  if (named !== undefined) return named;
  if (field === 'state' && STATES.includes(value as State)) return stateLabel(value as State);
  if (field === 'carType' && CAR_TYPES.includes(value as CarType)) return carTypeLabel(value as CarType);
  if (field === 'language' && typeof value === 'string' && Object.hasOwn(LANGUAGE_NAMES, value))
    return LANGUAGE_NAMES[value as keyof typeof LANGUAGE_NAMES];
  if (typeof value === 'boolean') return value ? m.auditYes() : m.auditNo();
  if (typeof value === 'string') return INSTANT.test(value) ? formatDateTime(value) : value;
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

type Values = Record<string, unknown> | null;

/** The fields a change touched: every field of either side whose value differs, in recorded order. */
export function changedFields(before: Values, after: Values): string[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.filter(
    (field) => JSON.stringify(before?.[field] ?? null) !== JSON.stringify(after?.[field] ?? null),
  );
}

/** A change as a small table: each field with its value before and after. */
export function AuditChanges({ before, after, type }: { before: Values; after: Values; type?: string }) {
  const fields = changedFields(before, after);
  if (fields.length === 0) return <span className={classes.muted}>{m.auditNoValues()}</span>;
  return (
    <table className={classes.diff}>
      <thead>
        <tr>
          <th scope="col">{m.auditField()}</th>
          <th scope="col">{m.auditBefore()}</th>
          <th scope="col">{m.auditAfter()}</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((field) => (
          <tr key={field}>
            <th scope="row">{auditFieldLabel(field)}</th>
            {/* On a phone the rows are stacked: each value says which side it is. */}
            <td data-label={m.auditBefore()}>
              <del className={classes.before}>{formatAuditValue(before?.[field], field, type)}</del>
            </td>
            <td data-label={m.auditAfter()}>
              <ins className={classes.after}>{formatAuditValue(after?.[field], field, type)}</ins>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
