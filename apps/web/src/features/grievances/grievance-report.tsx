import { Anchor, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { grievanceCategoryLabel } from '@bmet/shared/grievance-labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { GrievanceFigures } from '@bmet/shared/schemas/grievance';
import { ActionReasons } from '../../components/action-reasons';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { Page } from '../../components/page';
import { formatCount } from '../../lib/format';
import { monthName, recentMonths } from '../../lib/months';
import { useDriversNeedingAction, useGrievanceReport } from './api';

/**
 * A table wider than a phone, scrolled sideways within its own box: the box takes the keyboard's
 * focus, so that it can be scrolled without a pointer too.
 */
function ScrollingTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} style={{ overflowX: 'auto' }}>
      {children}
    </div>
  );
}

const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));

/** The figures' cells of one row: received, resolved in and after time, overdue, median hours. */
function FigureCells({ figures }: { figures: GrievanceFigures }) {
  return (
    <>
      <Table.Td>{formatCount(figures.received)}</Table.Td>
      <Table.Td>{formatCount(figures.resolvedInTime)}</Table.Td>
      <Table.Td>{formatCount(figures.resolvedLate)}</Table.Td>
      <Table.Td>{formatCount(figures.overdue)}</Table.Td>
      <Table.Td>
        {figures.medianHoursToResolve === null
          ? '-'
          : m.grievanceReportHours({ hours: figures.medianHoursToResolve.toFixed(1) })}
      </Table.Td>
    </>
  );
}

function FiguresTable({
  caption,
  first,
  rows,
}: {
  caption: string;
  first: string;
  rows: { key: string; name: string; figures: GrievanceFigures }[];
}) {
  return (
    <ScrollingTable label={caption}>
      <Table striped withTableBorder captionSide="top" miw={560}>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{first}</Table.Th>
            <Table.Th scope="col">{m.grievanceReportReceived()}</Table.Th>
            <Table.Th scope="col">{m.grievanceReportInTime()}</Table.Th>
            <Table.Th scope="col">{m.grievanceReportLate()}</Table.Th>
            <Table.Th scope="col">{m.grievanceReportOverdue()}</Table.Th>
            <Table.Th scope="col">{m.grievanceReportMedian()}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th scope="row">{row.name}</Table.Th>
              <FigureCells figures={row.figures} />
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollingTable>
  );
}

function DriversNeedingAction({ month }: { month: string }) {
  const query = useDriversNeedingAction(month);
  const drivers = query.data?.drivers ?? [];
  return (
    <Stack gap="xs" component="section">
      <Title order={3} size="h4" id="drivers-action-heading">
        {m.driversActionHeading()}
      </Title>
      <Text size="sm" c="dimmed">
        {m.driversActionIntro()}
      </Text>
      {query.error && <ErrorAlert error={query.error} />}
      {query.isSuccess && drivers.length === 0 && (
        <Text>{m.driversActionNone({ month: monthName(month) })}</Text>
      )}
      {drivers.length > 0 && (
        <ScrollingTable label={m.driversActionHeading()}>
          <Table striped withTableBorder aria-labelledby="drivers-action-heading" miw={560}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{m.driversActionDriver()}</Table.Th>
                <Table.Th scope="col">{m.driversActionRides()}</Table.Th>
                <Table.Th scope="col">{m.driversActionComplaints()}</Table.Th>
                <Table.Th scope="col">{m.driversActionLowRatings()}</Table.Th>
                <Table.Th scope="col">{m.driversActionWhy()}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {drivers.map((driver) => (
                <Table.Tr key={driver.driverId}>
                  <Table.Th scope="row">
                    <Anchor component={Link} to={`/drivers/${driver.driverId}`} underline="always">
                      {driver.driverName}
                    </Anchor>
                    {driver.franchiseName && (
                      <Text size="xs" c="dimmed">
                        {driver.franchiseName}
                      </Text>
                    )}
                  </Table.Th>
                  <Table.Td>{formatCount(driver.rides)}</Table.Td>
                  <Table.Td>
                    {formatCount(driver.complaints)} ({share(driver.complaints, driver.rides)}%)
                  </Table.Td>
                  <Table.Td>
                    {m.driversActionOfRated({
                      low: formatCount(driver.lowRatings),
                      rated: formatCount(driver.ratings),
                      share: share(driver.lowRatings, driver.ratings),
                    })}
                  </Table.Td>
                  <Table.Td>
                    <ActionReasons driver={driver} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollingTable>
      )}
    </Stack>
  );
}

/** `/grievances/report`: a month's grievances against their deadline, and the drivers needing action. */
export function GrievanceReport() {
  const months = recentMonths();
  const [month, setMonth] = useState(months[0]!);
  const query = useGrievanceReport(month);
  const report = query.data;
  return (
    <Page
      title={m.grievanceReportTitle()}
      actions={
        <ExportButton path="/grievances/report.csv" query={{ month }} label={m.grievanceReportExport()} />
      }
    >
      <Text size="sm" c="dimmed">
        {m.grievanceReportIntro()}
      </Text>
      <NativeSelect
        label={m.grievanceReportMonth()}
        value={month}
        onChange={(event) => setMonth(event.currentTarget.value)}
        data={months.map((value) => ({ value, label: monthName(value) }))}
        maw={240}
      />
      {query.error && <ErrorAlert error={query.error} />}
      {query.isPending && <Text c="dimmed">{m.grievanceReportLoading()}</Text>}
      {report && report.total.received === 0 && (
        <Text>{m.grievanceReportEmpty({ month: monthName(month) })}</Text>
      )}
      {report && report.total.received > 0 && (
        <>
          <FiguresTable
            caption={monthName(month)}
            first={m.grievanceReportSection()}
            rows={[{ key: 'all', name: m.grievanceReportAll(), figures: report.total }]}
          />
          <FiguresTable
            caption={m.grievanceReportByCategory()}
            first={m.grievanceReportCategory()}
            rows={report.byCategory.map(({ category, ...figures }) => ({
              key: category,
              name: grievanceCategoryLabel(category),
              figures,
            }))}
          />
          <FiguresTable
            caption={m.grievanceReportByFranchise()}
            first={m.grievanceReportFranchise()}
            rows={report.byFranchise.map(({ franchiseId, franchiseName, ...figures }) => ({
              key: franchiseId ?? 'none',
              name: franchiseName ?? m.grievanceReportNoFranchise(),
              figures,
            }))}
          />
        </>
      )}
      <DriversNeedingAction month={month} />
    </Page>
  );
}
