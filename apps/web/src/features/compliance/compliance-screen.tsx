import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { DocumentKey } from '@bmet/shared/constants';
import { DEFAULT_ORDERS } from '@bmet/shared/schemas/sort';
import { documentStatusLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { ComplianceEntry, ComplianceSummary } from '@bmet/shared/schemas/compliance';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable, listTableClasses, type ListColumn } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { RowButton, Tag } from '../../components/row-parts';
import { SortSelect, type SortOption } from '../../components/sort-select';
import { formatCalendarDate, formatCount, formatDateTime, INDIA_TIME_ZONE } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { isUuid } from '../../lib/param-checks';
import { useSession } from '../../lib/session-context';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import {
  COMPLIANCE_VIEWS,
  entryId,
  refId,
  refOf,
  useComplianceList,
  useComplianceSummary,
  type ComplianceSort,
  type ComplianceView,
  type DocumentRef,
} from './api';
import classes from './compliance.module.css';
import { SelectionContext } from './selection';

// What only reviewers use loads when first shown: the list's first load stays as it was.
const ReviewPanel = lazy(() => import('./review-panel').then((module) => ({ default: module.ReviewPanel })));
const BatchApproval = lazy(() =>
  import('./batch-approval').then((module) => ({ default: module.BatchApproval })),
);
const ApprovalCheckbox = lazy(() =>
  import('./batch-approval').then((module) => ({ default: module.ApprovalCheckbox })),
);

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

/** The document the review panel shows, as the address names it (`driver`, `document`); null for none. */
function readTarget(params: URLSearchParams): DocumentRef | null {
  const driverId = params.get('driver') ?? '';
  const key = params.get('document') ?? '';
  // A key the driver has no document of is answered as not found by the panel.
  return isUuid(driverId) && /^[A-Za-z]{1,40}$/.test(key) ? { driverId, key: key as DocumentKey } : null;
}

/** What a reviewer has in the review view: opening a document (choosing it is in SelectionContext). */
type Reviewing = { onOpen: (entry: ComplianceEntry) => void };

function EntryRow({
  entry,
  review,
  reviewing,
}: {
  entry: ComplianceEntry;
  review: boolean;
  reviewing: Reviewing | null;
}) {
  return (
    <tr role="row">
      {reviewing && (
        <Cell label="">
          <Suspense fallback={null}>
            <ApprovalCheckbox entry={entry} />
          </Suspense>
        </Cell>
      )}
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
      {reviewing && (
        <Cell label="">
          <RowButton
            onClick={() => reviewing.onOpen(entry)}
            aria-label={m.complianceReviewButtonLabel({ document: entry.label, name: entry.driverName })}
          >
            {m.complianceReviewButton()}
          </RowButton>
        </Cell>
      )}
    </tr>
  );
}

/**
 * `/compliance`: documents expired, expiring soon or awaiting review, of the drivers in scope. The
 * view (`?view=`) and its sort live in the address. In the review view, those who review documents
 * open one (`&driver=&document=`) to decide on it beside its image, and go on to the next document
 * without the list; or approve several that need no expiry date at once.
 */
export function ComplianceScreen() {
  const [params] = useSearchParams();
  const asked = params.get('view') as ComplianceView | null;
  const view: ComplianceView = asked && COMPLIANCE_VIEWS.includes(asked) ? asked : 'expired';
  const review = view === 'review';
  const { update, sort, setSort, sortQuery } = useListParams({ sort: review ? REVIEW_SORT : EXPIRY_SORT });
  const { session } = useSession();
  const mayReview = review && can(session?.role, ['drivers', 'review']);
  const target = mayReview ? readTarget(params) : null;
  const client = useQueryClient();
  const summary = useComplianceSummary();
  const list = useComplianceList(view, sortQuery);
  const entries = list.data?.pages.flatMap((page) => page.data) ?? [];
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // The documents opened since the panel opened: the queue does not come back to them.
  const seen = useRef(new Set<string>());
  // Another view keeps a sort by driver; its own default replaces a sort by date.
  const byDriver = sort.field === 'driverName';
  const showView = (option: ComplianceView) => {
    setSelected(new Set());
    update({
      view: option === 'expired' ? undefined : option,
      sort: byDriver ? sort.field : undefined,
      order: byDriver ? sort.order : undefined,
    });
  };

  const openDocument = (ref: DocumentRef, replace = false) =>
    update({ driver: ref.driverId, document: ref.key }, { replace });
  const closePanel = (replace = false) => {
    seen.current.clear();
    // The list shows what is left: the decisions of the panel may still be on their way.
    void client.invalidateQueries({ queryKey: ['compliance', 'list'] });
    update({ driver: undefined, document: undefined }, { replace });
  };
  /**
   * The next document awaiting review after `from`, in the list's order: on the next page when the
   * loaded ones have no more (or do not hold `from`, opened from a link), then those before it that
   * were passed over. The list is the one the decision was made on: the refresh that removes the
   * decided document may still be on its way.
   */
  const moveOn = async (from: DocumentRef) => {
    seen.current.add(refId(from));
    const unseen = (entry: ComplianceEntry) =>
      entry.status === 'submitted' && !seen.current.has(entryId(entry));
    let pages = list.data?.pages ?? [];
    let more = list.hasNextPage;
    for (;;) {
      const all = pages.flatMap((page) => page.data);
      const at = all.findIndex((entry) => entryId(entry) === refId(from));
      const next = at < 0 && more ? undefined : (at < 0 ? all : all.slice(at + 1)).find(unseen);
      if (next) return openDocument(refOf(next), true);
      if (!more) {
        const passed = all.slice(0, Math.max(at, 0)).find(unseen);
        if (passed) return openDocument(refOf(passed), true);
        break;
      }
      const fetched = await list.fetchNextPage();
      if (fetched.isError || !fetched.data) break;
      pages = fetched.data.pages;
      more = fetched.hasNextPage;
    }
    showNotification({ message: m.complianceReviewLast() });
    closePanel(true);
  };

  const selection = useMemo(
    () => ({
      selected,
      toggle: (entry: ComplianceEntry) =>
        setSelected((before) => {
          const next = new Set(before);
          if (!next.delete(entryId(entry))) next.add(entryId(entry));
          return next;
        }),
    }),
    [selected],
  );
  const reviewing: Reviewing | null = mayReview ? { onOpen: (entry) => openDocument(refOf(entry)) } : null;
  const firstAwaiting = entries.find((entry) => entry.status === 'submitted');
  const columns: ListColumn<ComplianceSort>[] = [
    { label: m.complianceColumnDriver(), sort: 'driverName' },
    m.complianceColumnDocument(),
    m.complianceColumnStatus(),
    review
      ? { label: m.complianceColumnUploaded(), sort: 'uploadedAt' }
      : { label: m.complianceColumnExpiresOn(), sort: 'expiresOn' },
  ];
  if (reviewing) {
    columns.unshift(m.complianceSelectColumn());
    columns.push(m.complianceColumnActions());
  }

  const exportButton = (
    <ExportButton
      path="/compliance/export.csv"
      query={{
        ...(review ? { status: 'submitted' } : { within: view === 'expired' ? 0 : Number(view) }),
        ...sortQuery,
      }}
    />
  );

  if (target)
    return (
      <Page title={m.complianceTitle()} actions={exportButton}>
        <Suspense fallback={<ListLoader label={m.complianceReviewLoading()} />}>
          <ReviewPanel
            // A new panel for each document: its date, reason and focus start afresh.
            key={refId(target)}
            target={target}
            entry={entries.find((entry) => entryId(entry) === refId(target))}
            onNext={() => void moveOn(target)}
            onBack={() => closePanel()}
          />
        </Suspense>
      </Page>
    );

  return (
    <Page title={m.complianceTitle()} actions={exportButton}>
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
      {reviewing && firstAwaiting && (
        <Group gap="sm">
          <Button
            leftSection={<IconPlayerPlay size={16} aria-hidden />}
            onClick={() => {
              seen.current.clear();
              openDocument(refOf(firstAwaiting));
            }}
          >
            {m.complianceReviewStart()}
          </Button>
        </Group>
      )}
      {reviewing && (
        <Suspense fallback={null}>
          <BatchApproval entries={entries} selected={selected} onSelect={setSelected} />
        </Suspense>
      )}
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.complianceLoading()} />
      ) : entries.length === 0 ? (
        <Text c="dimmed">{m.complianceEmpty()}</Text>
      ) : (
        <SelectionContext value={selection}>
          <div className={classes.queue}>
            <ListTable label={viewLabel(view)} sorting={{ ...sort, onSort: setSort }} columns={columns}>
              {entries.map((entry) => (
                <EntryRow
                  key={`${entry.driverId}/${entry.document}`}
                  entry={entry}
                  review={review}
                  reviewing={reviewing}
                />
              ))}
            </ListTable>
          </div>
        </SelectionContext>
      )}
      {entries.length > 0 && <LoadMoreButton query={list}>{m.complianceLoadMore()}</LoadMoreButton>}
    </Page>
  );
}
