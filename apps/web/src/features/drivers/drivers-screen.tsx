import { Group, NativeSelect, SegmentedControl } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { DEFAULT_COUNTRY } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Driver } from '@bmet/shared/schemas/driver';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { RowButton } from '../../components/row-parts';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { pagedRows } from '../../lib/paged-rows';
import { useSession } from '../../lib/session-context';
import { useSearch } from '../../lib/use-search';
import { useDeleteDriver, useDriverList, useRestoreDriver, type DriverCompliance } from './api';
import { ComplianceBadge } from './compliance-badge';

function RowActions({ driver, deletedView }: { driver: Driver; deletedView: boolean }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const deleteButton = useRef<HTMLButtonElement>(null);
  // Cancelled, the focus goes back to the Delete button it came from (rendered again at once).
  const cancel = () => {
    flushSync(() => setConfirming(false));
    deleteButton.current?.focus();
  };
  const remove = useDeleteDriver();
  const restore = useRestoreDriver();

  if (deletedView) {
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
  return (
    <div className={listTableClasses.actions}>
      {confirming ? (
        <>
          <RowButton
            variant="danger"
            loading={remove.isPending}
            onClick={() =>
              remove.mutate(driver.id, {
                onSuccess: () =>
                  showNotification({ color: 'teal', message: m.driversDeleted({ name: driver.name }) }),
                onError: (error) => {
                  setConfirming(false);
                  showNotification({ color: 'red', message: error.message });
                },
              })
            }
          >
            {m.driversConfirm()}
          </RowButton>
          {/* The confirmation takes the focus on its safe choice (the Delete button is gone). */}
          <RowButton variant="default" autoFocus onClick={cancel}>
            {m.driversCancel()}
          </RowButton>
        </>
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

/** The spec's 'Driver List': searched and paged on the server, scoped to the caller's drivers. */
export function DriversScreen() {
  const { session } = useSession();
  const role = session!.role;
  const { search, setSearch, q } = useSearch();
  const [view, setView] = useState<'active' | 'deleted'>('active');
  const deletedView = view === 'deleted';
  const [compliance, setCompliance] = useState<DriverCompliance | ''>('');
  const list = useDriverList(role, q, deletedView, compliance || undefined);

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
      actions={<ExportButton path="/drivers/export.csv" query={{ q, deleted: deletedView || undefined }} />}
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.driversSearchLabel()}
          placeholder={m.driversSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={420}
        />
        <NativeSelect
          label={m.driversFilterCompliance()}
          value={compliance}
          onChange={(event) => setCompliance(event.currentTarget.value as DriverCompliance | '')}
          data={[
            { value: '', label: m.driversFilterAll() },
            { value: 'not_compliant', label: m.driversFilterNotCompliant() },
            { value: 'compliant', label: m.driversFilterCompliant() },
          ]}
          w={170}
          mr="auto"
        />
        {can(role, 'restore', 'drivers') && (
          <SegmentedControl
            value={view}
            onChange={(value) => setView(value as 'active' | 'deleted')}
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
              columns={[
                m.driversName(),
                m.driversEmail(),
                m.driversPhoneNumber(),
                m.driversCountry(),
                m.driversActions(),
              ]}
            >
              {drivers.map((driver) => (
                <tr key={driver.id} role="row">
                  <Cell label="">
                    <span className={listTableClasses.title}>{driver.name}</span>
                    <ComplianceBadge compliance={driver.compliance} />
                  </Cell>
                  <Cell label={m.driversEmail()}>{driver.email || m.noInfo()}</Cell>
                  <Cell label={m.driversPhoneNumber()}>{driver.phoneNumber || m.noInfo()}</Cell>
                  <Cell label={m.driversCountry()}>{driver.country || DEFAULT_COUNTRY}</Cell>
                  <Cell label="">
                    <RowActions driver={driver} deletedView={deletedView} />
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
