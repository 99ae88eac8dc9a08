import { documentProblemLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { CHECK_KIND_LABELS } from '@bmet/shared/check-labels';
import type { Compliance, ComplianceCheckProblem } from '@bmet/shared/schemas/driver';
import { Tag } from '../../components/row-parts';
import classes from './compliance-badge.module.css';

const CHECK_PROBLEMS: Record<ComplianceCheckProblem['problem'], (input: { document: string }) => string> = {
  missing: m.complianceProblemMissing,
  expired: m.complianceProblemExpired,
  failed: m.complianceCheckFailed,
  insufficient: m.complianceCheckInsufficient,
  overdue: m.complianceCheckOverdue,
};

/**
 * Why a driver is not compliant, in words: "Driver Licence expired, Aadhar Card missing, Police
 * verification expired".
 */
export function complianceReasons(compliance: Compliance): string {
  return [
    ...compliance.problems.map(({ document, problem }) => documentProblemLabel(document, problem)),
    ...(compliance.checks ?? []).map(({ check, problem }) =>
      CHECK_PROBLEMS[problem]({ document: CHECK_KIND_LABELS[check]() }),
    ),
    ...(compliance.vehicle ?? []).map(({ ageLimitYears }) =>
      m.complianceVehicleOverAge({ years: ageLimitYears }),
    ),
  ].join(', ');
}

/**
 * "Not compliant" with its reasons, for a driver whose mandatory documents are not all in order.
 * In a list the reasons keep to two lines of a narrow column (the whole of them on hover, and to
 * screen readers), so that a driver with many keeps the list short and within the screen.
 */
export function ComplianceBadge({ compliance }: { compliance: Compliance | undefined }) {
  if (!compliance || compliance.compliant) return null;
  const reasons = m.complianceReasons({ reasons: complianceReasons(compliance) });
  return (
    <span className={classes.badge}>
      <Tag color="red">{m.notCompliant()}</Tag>
      <span className={classes.reasons} title={reasons}>
        {reasons}
      </span>
    </span>
  );
}
