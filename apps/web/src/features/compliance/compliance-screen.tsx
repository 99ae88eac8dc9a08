import { Anchor, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { DEFAULT_ORDERS } from '@bmet/shared/schemas/sort';
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
import { SortSelect, type SortOption } from '../../components/sort-select';
import { formatCalendarDate, formatCount, formatDateTime, INDIA_TIME_ZONE } from '../../lib/format';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import {
  COMPLIANCE_VIEWS,
  useComplianceList,
  useComplianceSummary,
  type ComplianceSort,
  type ComplianceView,
} from './api';
import classes from './compliance.module.css';

/** The expiry views sort by expiry date, the review view by upload time; any of them by driver. */
const EXPIRY_SORT: SortSpec<ComplianceSort> = {
  fields: ['expiresOn', 'driverName'],
  defaultOrder: DEFAULT_ORDERS.compliance,
};
const REVIEW_SORT: SortSpec<ComplianceSort> = {
  fields: ['uploadedAt', 'driverName'],
  defaultOrder: DEFAULT_ORDERS.compliance,
};

const sortOptions = (review: boolean): SortOption<ComplianceSort>[] => [
  ...(review
    ? [
        { field: 'uploadedAt', order: 'asc', label: m.sortUploadedOldest() } as const,
        { field: 'uploadedAt', order: 'desc', label: m.sortUploadedNewest() } as const,
      ]
    : [
        { field: 'expiresOn', order: 'asc', label: m.sortExpiryEarliest() } as const,
        { field: 'expiresOn', order: 'desc', label: m.sortExpiryLatest() } as const,
      ]),
  { field: 'driverName', order: 'asc', label: m.sortDriverAsc() },
  { field: 'driverName', order: 'desc', label: m.sortDriverDesc() },
];

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
      <Cell label={m.complianceColumnStatus()}>
        {entry.status ? documentStatusLabel(entry.status) : m.complianceCheckInForce()}
      </Cell>
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

/**
 * `/compliance`: documents expired, expiring soon or awaiting review, of the drivers in scope. The
 * view (`?view=`) and its sort live in the address.
 */
export function ComplianceScreen() {
  const [params] = useSearchParams();
  const asked = params.get('view') as ComplianceView | null;
  const view: ComplianceView = asked && COMPLIANCE_VIEWS.includes(asked) ? asked : 'expired';
  const review = view === 'review';
  const { update, sort, setSort, sortQuery } = useListParams({ sort: review ? REVIEW_SORT : EXPIRY_SORT });
  const summary = useComplianceSummary();
  const list = useComplianceList(view, sortQuery);
  const entries = list.data?.pages.flatMap((page) => page.data) ?? [];
  // Another view keeps a sort by driver; its own default replaces a sort by date.
  const byDriver = sort.field === 'driverName';
  const showView = (option: ComplianceView) =>
    update({
      view: option === 'expired' ? undefined : option,
      sort: byDriver ? sort.field : undefined,
      order: byDriver ? sort.order : undefined,
    });

  return (
    <Page
      title={m.complianceTitle()}
      actions={
        <ExportButton
          path="/compliance/export.csv"
          query={{
            ...(review ? { status: 'submitted' } : { within: view === 'expired' ? 0 : Number(view) }),
            ...sortQuery,
          }}
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
              onClick={() => showView(option)}
            >
              {viewLabel(option)}
              {count !== undefined && <span className={classes.count}>{formatCount(count)}</span>}
            </button>
          );
        })}
      </div>
      <SortSelect options={sortOptions(review)} sort={sort} onChange={setSort} phoneOnly />
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.complianceLoading()} />
      ) : entries.length === 0 ? (
        <Text c="dimmed">{m.complianceEmpty()}</Text>
      ) : (
        <ListTable
          label={viewLabel(view)}
          sorting={{ ...sort, onSort: setSort }}
          columns={[
            { label: m.complianceColumnDriver(), sort: 'driverName' },
            m.complianceColumnDocument(),
            m.complianceColumnStatus(),
            review
              ? { label: m.complianceColumnUploaded(), sort: 'uploadedAt' }
              : { label: m.complianceColumnExpiresOn(), sort: 'expiresOn' },
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
