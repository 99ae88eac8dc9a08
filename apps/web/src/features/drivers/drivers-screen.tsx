import { Group, NativeSelect, Text } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Driver } from '@bmet/shared/schemas/driver';
import { DEFAULT_ORDERS, DRIVER_SORTS } from '@bmet/shared/schemas/sort';
import { ChoiceGroup } from '../../components/choice-group';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { RowButton, Tag } from '../../components/row-parts';
import { countryLabel, formatPhone } from '../../lib/format';
import { freshnessLabel, freshnessOf } from '../../lib/freshness';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { SortSelect, type SortOption } from '../../components/sort-select';
import { pagedRows } from '../../lib/paged-rows';
import { useSession } from '../../lib/session-context';
import { oneOf } from '../../lib/param-checks';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import {
  useDeleteDriver,
  useDriverList,
  useRestoreDriver,
  type DriverCompliance,
  type DriverSort,
} from './api';
import { ComplianceBadge } from './compliance-badge';

/** An email that may wrap only before its @, never inside a word. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span className={listTableClasses.nowrap}>{address}</span>;
  return (
    <>
      <span className={listTableClasses.nowrap}>{address.slice(0, at)}</span>
      <wbr />
      <span className={listTableClasses.nowrap}>{address.slice(at)}</span>
    </>
  );
}

/** Whether the driver reported a position within the live threshold, as on the fleet map. */
function LiveStatus({ positionAt, now }: { positionAt: string | null; now: number }) {
  const freshness = freshnessOf(positionAt ? Date.parse(positionAt) : Number.NaN, now);
  return (
    <Tag color={freshness === 'live' ? 'teal' : 'gray'} variant={freshness === 'live' ? 'filled' : 'outline'}>
      {freshnessLabel(freshness)}
    </Tag>
  );
}

/** The time now, moved on every 30 seconds: the live badges age without a new page. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** A deleted driver's Restore button. */
function RestoreAction({ driver }: { driver: Driver }) {
  const restore = useRestoreDriver();
  return (
    <RowButton
      loading={restore.isPending}
      onClick={() =>
        restore.mutate(driver.id, {
          onSuccess: () =>
            showNotification({ color: 'teal', message: m.driversRestored({ name: driver.name }) }),
          onError: (error) => showNotification({ color: 'red', message: error.message }),
        })
      }
    >
      {m.driversRestore()}
    </RowButton>
  );
}

/**
 * The question asked once Delete is pressed. The deletion's state lives here, not in every row: a
 * page of 50 rows otherwise keeps 50 mutations watched for the one or two ever pressed.
 */
function ConfirmDelete({ driver, onClose }: { driver: Driver; onClose: () => void }) {
  const remove = useDeleteDriver();
  return (
    <>
      {/* Which driver the confirmation deletes, read out as it appears. */}
      <Text size="xs" fw={600} role="status" w="100%">
        {m.driversDeleteQuestion({ name: driver.name })}
      </Text>
      <RowButton
        variant="danger"
        loading={remove.isPending}
        onClick={() =>
          remove.mutate(driver.id, {
            onSuccess: () =>
              showNotification({ color: 'teal', message: m.driversDeleted({ name: driver.name }) }),
            onError: (error) => {
              onClose();
              showNotification({ color: 'red', message: error.message });
            },
          })
        }
      >
        {m.driversConfirm()}
      </RowButton>
      {/* The confirmation takes the focus on its safe choice (the Delete button is gone). Once
          sent, a deletion cannot be called back: Cancel waits with Confirm for its answer. */}
      <RowButton variant="default" autoFocus disabled={remove.isPending} onClick={onClose}>
        {m.driversCancel()}
      </RowButton>
    </>
  );
}

function RowActions({ driver }: { driver: Driver }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  // Cancelled, the focus goes back to the Delete button it came from (rendered again at once).
  const cancel = () => {
    flushSync(() => setConfirming(false));
    deleteButton.current?.focus();
  };
  return (
    <div className={listTableClasses.actions}>
      {confirming ? (
        <ConfirmDelete driver={driver} onClose={cancel} />
      ) : (
        <RowButton variant="danger-light" ref={deleteButton} onClick={() => setConfirming(true)}>
          {m.deleteDriver()}
        </RowButton>
      )}
      <RowButton variant="default" onClick={() => navigate(`/drivers/${driver.id}`)}>
        {m.driversMore()}
      </RowButton>
    </div>
  );
}

const SORT: SortSpec<DriverSort> = { fields: DRIVER_SORTS, defaultOrder: DEFAULT_ORDERS.drivers };
const PARAMS = {
  deleted: oneOf(['true']),
  compliance: oneOf(['compliant', 'not_compliant']),
  remedial: oneOf(['due']),
};

const sortOptions = (): SortOption<DriverSort>[] => [
  { field: 'name', order: 'asc', label: m.sortNameAsc() },
  { field: 'name', order: 'desc', label: m.sortNameDesc() },
  { field: 'createdAt', order: 'desc', label: m.sortNewestFirst() },
  { field: 'createdAt', order: 'asc', label: m.sortOldestFirst() },
];

/**
 * The spec's 'Driver List': searched and paged on the server, scoped to the caller's drivers. Its
 * search, filters and sort live in the address (`?q=&deleted=true&compliance=&remedial=&sort=&order=`).
 */
export function DriversScreen() {
  const { session } = useSession();
  const role = session!.role;
  const now = useNow();
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: SORT,
  });
  // Only those who may restore drivers see deleted ones; for anyone else the address's ask is ignored.
  const deletedView = values.deleted === 'true' && can(role, ['drivers', 'restore']);
  const compliance = values.compliance as DriverCompliance | undefined;
  const remedial = values.remedial === 'due' ? ('due' as const) : undefined;
  const list = useDriverList(role, { q, deleted: deletedView, compliance, remedial, ...sortQuery });

  if (list.isError && !list.data) {
    return (
      <Page title={m.driverList()}>
        <ErrorAlert error={list.error} />
      </Page>
    );
  }

  const { rows: drivers, total, totalCapped } = pagedRows(list.data);

  return (
    <Page
      title={m.driverList()}
      actions={
        <Group gap="sm">
          <ExportButton
            path="/drivers/export.csv"
            query={{ q, deleted: deletedView || undefined, compliance, remedial, ...sortQuery }}
          />
          <ExportButton
            path="/drivers/checks.csv"
            label={m.driversExportChecks()}
            query={{ q, deleted: deletedView || undefined, compliance, remedial, ...sortQuery }}
          />
        </Group>
      }
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.driversSearchLabel()}
          placeholder={m.driversSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={420}
        />
        <SortSelect options={sortOptions()} sort={sort} onChange={setSort} />
        <NativeSelect
          label={m.driversFilterCompliance()}
          value={compliance ?? ''}
          onChange={(event) => update({ compliance: event.currentTarget.value })}
          data={[
            { value: '', label: m.driversFilterAll() },
            { value: 'not_compliant', label: m.driversFilterNotCompliant() },
            { value: 'compliant', label: m.driversFilterCompliant() },
          ]}
          w={170}
        />
        <NativeSelect
          label={m.driversFilterChecks()}
          value={remedial ?? ''}
          onChange={(event) => update({ remedial: event.currentTarget.value })}
          data={[
            { value: '', label: m.driversFilterAll() },
            { value: 'due', label: m.driversFilterRemedialDue() },
          ]}
          w={300}
          mr="auto"
        />
        {can(role, ['drivers', 'restore']) && (
          <ChoiceGroup
            label={m.driversView()}
            value={deletedView ? 'deleted' : 'active'}
            onChange={(value) => update({ deleted: value === 'deleted' ? 'true' : undefined })}
            data={[
              { value: 'active', label: m.driversViewActive() },
              { value: 'deleted', label: m.driversViewDeleted() },
            ]}
          />
        )}
      </Group>
      {list.isPending ? (
        <ListLoader label={m.driversLoadingList()} />
      ) : (
        <>
          <ListSummary
            shown={drivers.length}
            total={total}
            totalCapped={totalCapped}
            noun={m.driversNoun()}
            countedAs={deletedView ? m.driversCountedDeleted() : m.driversNoun()}
            query={q}
            empty={deletedView ? m.driversEmptyDeleted() : m.driversEmpty()}
          />
          {drivers.length > 0 && (
            <ListTable
              label={m.driverList()}
              sorting={{ ...sort, onSort: setSort }}
              columns={[
                { label: m.driversName(), sort: 'name' },
                m.driversEmail(),
                m.driversPhoneNumber(),
                m.driversCountry(),
                m.driversColumnVehicle(),
                m.driversColumnFranchise(),
                m.driversColumnLive(),
                m.driversActions(),
              ]}
            >
              {drivers.map((driver) => (
                <tr key={driver.id} role="row">
                  <Cell label="">
                    <span className={listTableClasses.title}>{driver.name}</span>
                    <ComplianceBadge compliance={driver.compliance} />
                  </Cell>
                  <Cell label={m.driversEmail()}>
                    {driver.email ? <Email address={driver.email} /> : m.noInfo()}
                  </Cell>
                  <Cell label={m.driversPhoneNumber()}>
                    <span className={listTableClasses.nowrap}>
                      {driver.phoneNumber ? formatPhone(driver.phoneNumber) : m.noInfo()}
                    </span>
                  </Cell>
                  <Cell label={m.driversCountry()}>{countryLabel(driver.country)}</Cell>
                  <Cell label={m.driversColumnVehicle()}>
                    <span className={listTableClasses.nowrap}>{driver.vehicleNumber || '-'}</span>
                  </Cell>
                  <Cell label={m.driversColumnFranchise()}>{driver.franchiseName || '-'}</Cell>
                  <Cell label={m.driversColumnLive()}>
                    <LiveStatus positionAt={driver.positionAt} now={now} />
                  </Cell>
                  <Cell label="">
                    {deletedView ? <RestoreAction driver={driver} /> : <RowActions driver={driver} />}
                  </Cell>
                </tr>
              ))}
            </ListTable>
          )}
          <LoadMoreButton query={list}>{m.driversLoadMore()}</LoadMoreButton>
        </>
      )}
    </Page>
  );
}
