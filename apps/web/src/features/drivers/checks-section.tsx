import { CHECK_KIND_LABELS, CHECK_STATUS_LABELS } from '@bmet/shared/check-labels';
import { Badge, Button, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, useDeferredValue, useState } from 'react';
import { can } from '@bmet/shared/permissions';
import { m } from '@bmet/shared/paraglide/messages';
import type { CheckStatus } from '@bmet/shared/driver-check-rules';
import type { DriverCheck } from '@bmet/shared/schemas/driver-check';
import { Cell, ListTable } from '../../components/list-table';
import { OnDemand } from '../../components/on-demand';
import { formatCalendarDate, formatRupees } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { checksQuery, driverKeys } from './api';

export const checkKeys = driverKeys.checks;

// The form loads with its first use: its inputs are not needed to read the checks.
const CheckDialog = lazy(() => import('./check-dialog').then((module) => ({ default: module.CheckDialog })));

export const KIND_LABELS = CHECK_KIND_LABELS;

const STATUS_COLOURS: Record<CheckStatus, string> = {
  valid: 'teal',
  missing: 'red',
  failed: 'red',
  expired: 'red',
  insufficient: 'orange',
  due: 'orange',
  not_due: 'gray',
};

/** What a check records, in words: passed or failed, hours, or the cover. */
function measureOf(check: DriverCheck): string {
  if (check.result) return check.result === 'passed' ? m.checkResultPassed() : m.checkResultFailed();
  if (check.hours !== null) return m.checkHoursValue({ hours: String(check.hours) });
  if (check.amount !== null) return formatRupees(check.amount);
  return '-';
}

/**
 * The driver's checks beside the documents (police verification, fitness, trainings, insurance),
 * each with its status today; whoever keeps the driver records a new one.
 */
export function ChecksSection({ driverId }: { driverId: string }) {
  const { session } = useSession();
  const checks = useDeferredValue(useQuery(checksQuery(driverId)));
  const [editing, setEditing] = useState<DriverCheck | null>(null);
  const mayRecord = session && can(session.role, ['drivers', 'checks']);
  if (checks.isPending)
    return (
      <Text c="dimmed" data-content-loading="">
        {m.checksLoading()}
      </Text>
    );
  if (checks.isError) return <Text c="red">{checks.error.message}</Text>;
  const columns = [
    m.checkColumnCheck(),
    m.checkColumnStatus(),
    m.checkColumnDone(),
    m.checkColumnReference(),
    m.checkColumnMeasure(),
    m.checkColumnExpires(),
    ...(mayRecord ? [{ label: m.checkColumnAction(), screenOnly: true as const }] : []),
  ];
  return (
    <>
      <ListTable label={m.driversSectionChecks()} columns={columns}>
        {checks.data.map((check) => (
          <tr key={check.kind} role="row">
            <Cell label={m.checkColumnCheck()}>{KIND_LABELS[check.kind]()}</Cell>
            <Cell label={m.checkColumnStatus()}>
              <Badge color={STATUS_COLOURS[check.status]} variant="light">
                {CHECK_STATUS_LABELS[check.status]()}
              </Badge>
            </Cell>
            <Cell label={m.checkColumnDone()}>{check.doneOn ? formatCalendarDate(check.doneOn) : '-'}</Cell>
            <Cell label={m.checkColumnReference()}>{check.reference ?? '-'}</Cell>
            <Cell label={m.checkColumnMeasure()}>{measureOf(check)}</Cell>
            <Cell label={m.checkColumnExpires()}>
              {check.expiresOn ? formatCalendarDate(check.expiresOn) : '-'}
            </Cell>
            {mayRecord && (
              <Cell label={m.checkColumnAction()} screenOnly>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setEditing(check)}
                  aria-label={m.checkRecordFor({ check: KIND_LABELS[check.kind]() })}
                >
                  {m.checkRecord()}
                </Button>
              </Cell>
            )}
          </tr>
        ))}
      </ListTable>
      <OnDemand open={editing !== null}>
        {editing && <CheckDialog driverId={driverId} check={editing} onClose={() => setEditing(null)} />}
      </OnDemand>
    </>
  );
}
