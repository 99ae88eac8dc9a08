import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { ComplianceEntry, ComplianceSummary } from '@bmet/shared/schemas/compliance';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { Tag } from '../../components/row-parts';
import { formatCalendarDate, formatCount, formatDateTime, INDIA_TIME_ZONE } from '../../lib/format';
import { COMPLIANCE_VIEWS, useComplianceList, useComplianceSummary, type ComplianceView } from './api';
import classes from './compliance.module.css';

/** Days from today in India to a YYYY-MM-DD date (negative once it has passed). */
function daysUntil(date: string): number {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: INDIA_TIME_ZONE }).format(new Date());
  return Math.round((Date.parse(date) - Date.parse(today)) / 86_400_000);
}

function viewLabel(view: ComplianceView): string {
  if (view === 'expired') return m.complianceTabExpired();
  if (view === 'review') return m.complianceTabAwaiting();
  if (view === '1') return m.complianceTabWithinOne();
  return m.complianceTabWithin({ days: Number(view) });
}

function viewCount(view: ComplianceView, summary: ComplianceSummary | undefined): number | undefined {
  if (!summary) return undefined;
  const counts: Record<ComplianceView, number> = {
    expired: summary.expired,
    '1': summary.within1,
    '7': summary.within7,
    '30': summary.within30,
    review: summary.awaitingReview,
  };
  return counts[view];
}

/** When a document expires, in words that say how urgent it is. */
function ExpiryCell({ expiresOn }: { expiresOn: string }) {
  const days = daysUntil(expiresOn);
  const text =
    days < 0
      ? m.complianceTabExpired()
      : days === 0
        ? m.complianceExpiresToday()
        : days === 1
          ? m.complianceExpiresTomorrow()
          : m.complianceExpiresIn({ days });
  return (
    <span className={classes.expiry}>
      <Tag color={days < 0 ? 'red' : days <= 7 ? 'orange' : 'yellow'} plainCase>
        {text}
      </Tag>
      <Text size="xs" c="dimmed">
        {formatCalendarDate(expiresOn)}
      </Text>
    </span>
  );
}

function EntryRow({ entry, review }: { entry: ComplianceEntry; review: boolean }) {
  return (
    <tr role="row">
      <Cell label="">
        <Anchor
          component={Link}
          to={`/drivers/${entry.driverId}`}
          className={listTableClasses.title}
          aria-label={m.complianceOpenDriver({ name: entry.driverName })}
        >
          {entry.driverName}
        </Anchor>
      </Cell>
      <Cell label={m.complianceColumnDocument()}>{entry.label}</Cell>
      <Cell label={m.complianceColumnStatus()}>{documentStatusLabel(entry.status)}</Cell>
      {review ? (
        <Cell label={m.complianceColumnUploaded()}>
          {entry.uploadedAt ? formatDateTime(entry.uploadedAt) : '-'}
        </Cell>
      ) : (
        <Cell label={m.complianceColumnExpiresOn()}>
          {entry.expiresOn ? <ExpiryCell expiresOn={entry.expiresOn} /> : '-'}
        </Cell>
      )}
    </tr>
  );
}

/** `/compliance`: documents expired, expiring soon or awaiting review, of the drivers in scope. */
export function ComplianceScreen() {
  const [params, setParams] = useSearchParams();
  const asked = params.get('view') as ComplianceView | null;
  const view: ComplianceView = asked && COMPLIANCE_VIEWS.includes(asked) ? asked : 'expired';
  const summary = useComplianceSummary();
  const list = useComplianceList(view);
  const entries = list.data?.pages.flatMap((page) => page.data) ?? [];
  const review = view === 'review';

  return (
    <Page
      title={m.complianceTitle()}
      actions={
        <ExportButton
          path="/compliance/export.csv"
          query={review ? { status: 'submitted' } : { within: view === 'expired' ? 0 : Number(view) }}
        />
      }
    >
      <Text c="dimmed" size="sm">
        {m.complianceIntro()}
      </Text>
      <div className={classes.views} role="group" aria-label={m.complianceTitle()}>
        {COMPLIANCE_VIEWS.map((option) => {
          const count = viewCount(option, summary.data);
          return (
            <button
              key={option}
              type="button"
              className={classes.view}
              aria-pressed={option === view}
              onClick={() => setParams(option === 'expired' ? {} : { view: option })}
            >
              {viewLabel(option)}
              {count !== undefined && <span className={classes.count}>{formatCount(count)}</span>}
            </button>
          );
        })}
      </div>
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.complianceLoading()} />
      ) : entries.length === 0 ? (
        <Text c="dimmed">{m.complianceEmpty()}</Text>
      ) : (
        <ListTable
          label={viewLabel(view)}
          columns={[
            m.complianceColumnDriver(),
            m.complianceColumnDocument(),
            m.complianceColumnStatus(),
            review ? m.complianceColumnUploaded() : m.complianceColumnExpiresOn(),
          ]}
        >
          {entries.map((entry) => (
            <EntryRow key={`${entry.driverId}/${entry.document}`} entry={entry} review={review} />
          ))}
        </ListTable>
      )}
      {entries.length > 0 && <LoadMoreButton query={list}>{m.complianceLoadMore()}</LoadMoreButton>}
    </Page>
  );
}
