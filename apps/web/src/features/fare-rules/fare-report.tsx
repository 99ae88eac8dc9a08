import { Anchor, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { CommissionOverCap, FareReport, OutOfBandRate } from '@bmet/shared/schemas/fare-rule';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { Section } from '../../components/section';
import { formatCalendarDate, formatCount, formatRupees, stateLabel } from '../../lib/format';
import { useFareReport } from './api';
import { WideTable } from './wide-table';
import { formatMonth, monthsUntil, todayInIndia } from './fields';

/** How many months the month picker goes back, this one included. */
const MONTHS_OFFERED = 24;

const rateFieldName = (field: OutOfBandRate['field']) =>
  field === 'basePrice' ? m.fareFieldBasePrice() : m.fareFieldPerKm();

function RateRow({ rate }: { rate: OutOfBandRate }) {
  return (
    <tr role="row">
      <Cell label={m.fareReportColumnState()}>
        <span className={listTableClasses.title}>{stateLabel(rate.state)}</span>
      </Cell>
      <Cell label={m.fareReportColumnCarType()}>{carTypeLabel(rate.carType)}</Cell>
      <Cell label={m.fareReportColumnField()}>{rateFieldName(rate.field)}</Cell>
      <Cell label={m.fareReportColumnValue()}>
        {formatRupees(rate.value)}
        {rate.rushHour !== 1 && (
          <Text span size="xs" c="dimmed" display="block">
            {m.fareRulesReportRushHour({ rush: formatCount(rate.rushHour) })}
          </Text>
        )}
      </Cell>
      <Cell label={m.fareRulesReportColumnAllowed()}>
        {m.fareRulesReportRange({ min: formatRupees(rate.allowedMin), max: formatRupees(rate.allowedMax) })}
      </Cell>
      <Cell label={m.fareReportColumnSource()}>
        {rate.source === 'firebase' ? m.changedByFirebase() : m.fareReportSourceConsole()}
      </Cell>
    </tr>
  );
}

function CommissionRow({ row }: { row: CommissionOverCap }) {
  const share = row.fares > 0 ? Math.round((row.commission / row.fares) * 1000) / 10 : null;
  return (
    <tr role="row">
      <Cell label="">
        <Anchor component={Link} to={`/drivers/${row.driverId}`} size="sm" className={listTableClasses.title}>
          {row.driverName}
        </Anchor>
      </Cell>
      <Cell label={m.fareReportColumnState()}>{stateLabel(row.state)}</Cell>
      <Cell label={m.fareReportColumnMonth()}>{formatMonth(row.month)}</Cell>
      <Cell label={m.fareRulesReportColumnFares()}>{formatRupees(row.fares)}</Cell>
      <Cell label={m.fareReportCommission()}>
        {formatRupees(row.commission)}
        {share !== null && (
          <Text span size="xs" c="dimmed" display="block">
            {m.fareRulesReportShareOfFares({ percent: formatCount(share) })}
          </Text>
        )}
      </Cell>
      <Cell label={m.fareRulesReportColumnCap()}>{`${formatCount(row.capPercent)}%`}</Cell>
    </tr>
  );
}

function ReportTables({ report }: { report: FareReport }) {
  return (
    <>
      <Stack gap="xs">
        <Title order={4} size="h5">
          {m.fareRulesReportRatesTitle()}
        </Title>
        <Text size="sm" c="dimmed">
          {m.fareRulesReportRatesExplanation({ date: formatCalendarDate(report.day) })}
        </Text>
        {report.rates.length === 0 ? (
          <Text size="sm">{m.fareRulesReportRatesEmpty()}</Text>
        ) : (
          <WideTable label={m.fareRulesReportRatesTitle()}>
            <ListTable
              label={m.fareRulesReportRatesTitle()}
              columns={[
                m.fareReportColumnState(),
                m.fareReportColumnCarType(),
                m.fareReportColumnField(),
                m.fareReportColumnValue(),
                m.fareRulesReportColumnAllowed(),
                m.fareReportColumnSource(),
              ]}
            >
              {report.rates.map((rate) => (
                <RateRow key={`${rate.state}-${rate.carType}-${rate.field}`} rate={rate} />
              ))}
            </ListTable>
          </WideTable>
        )}
      </Stack>
      <Stack gap="xs">
        <Title order={4} size="h5">
          {m.fareRulesReportCommissionTitle()}
        </Title>
        <Text size="sm" c="dimmed">
          {m.fareRulesReportCommissionExplanation({ month: formatMonth(report.month) })}
        </Text>
        {report.commission.length === 0 ? (
          <Text size="sm">{m.fareRulesReportCommissionEmpty({ month: formatMonth(report.month) })}</Text>
        ) : (
          <WideTable label={m.fareRulesReportCommissionTitle()}>
            <ListTable
              label={m.fareRulesReportCommissionTitle()}
              columns={[
                m.fareReportColumnDriver(),
                m.fareReportColumnState(),
                m.fareReportColumnMonth(),
                m.fareRulesReportColumnFares(),
                m.fareReportCommission(),
                m.fareRulesReportColumnCap(),
              ]}
            >
              {report.commission.map((row) => (
                <CommissionRow key={`${row.driverId}-${row.month}`} row={row} />
              ))}
            </ListTable>
          </WideTable>
        )}
      </Stack>
    </>
  );
}

/**
 * The report of a month: the rates outside their state's band today, and the drivers whose
 * commission took more than their share allows that month; exported as CSV.
 */
export function FareReportSection({ month, onMonth }: { month: string; onMonth: (month: string) => void }) {
  const report = useFareReport(month);
  const months = monthsUntil(todayInIndia(), MONTHS_OFFERED);
  if (!months.includes(month)) months.push(month);
  return (
    <Section title={m.fareRulesReportTitle()}>
      <Group align="end" gap="sm" justify="space-between">
        <NativeSelect
          label={m.fareRulesReportMonth()}
          value={month}
          onChange={(event) => onMonth(event.currentTarget.value)}
          data={months.map((value) => ({ value, label: formatMonth(value) }))}
          w={{ base: '100%', xs: 220 }}
        />
        <ExportButton path="/fare-rules/report.csv" query={{ month }} />
      </Group>
      {report.isError && !report.data ? (
        <ErrorAlert error={report.error} />
      ) : report.isPending ? (
        <ListLoader label={m.fareRulesReportLoading()} />
      ) : (
        <ReportTables report={report.data} />
      )}
    </Section>
  );
}
