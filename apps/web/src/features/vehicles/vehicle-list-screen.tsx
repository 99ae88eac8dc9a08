import { Button, Group, NativeSelect } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useNavigate } from 'react-router';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { DEFAULT_ORDERS, VEHICLE_SORTS } from '@bmet/shared/schemas/sort';
import { formatRegistration, makeAndModel } from '@bmet/shared/vehicle-rules';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { SortSelect, type SortOption } from '../../components/sort-select';
import { pagedRows } from '../../lib/paged-rows';
import { oneOf } from '../../lib/param-checks';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import { useVehicleList, type VehicleCompliance, type VehicleSort } from './api';
import { VehicleComplianceBadge, vehicleAge } from './vehicle-parts';

const VehicleDialog = lazy(() => import('./vehicle-dialog').then((m) => ({ default: m.VehicleDialog })));

const SORT: SortSpec<VehicleSort> = { fields: VEHICLE_SORTS, defaultOrder: DEFAULT_ORDERS.vehicles };
const PARAMS = { compliance: oneOf(['compliant', 'not_compliant']) };

const sortOptions = (): SortOption<VehicleSort>[] => [
  { field: 'registrationNumber', order: 'asc', label: m.vehicleSortNumberAsc() },
  { field: 'registrationNumber', order: 'desc', label: m.vehicleSortNumberDesc() },
  { field: 'createdAt', order: 'desc', label: m.sortNewestFirst() },
  { field: 'createdAt', order: 'asc', label: m.sortOldestFirst() },
];

/**
 * The vehicles of the caller's drivers: searched, filtered, sorted and paged on the server; a row
 * opens the vehicle's page. The search, filter and sort live in the address.
 */
export function VehicleListScreen() {
  const navigate = useNavigate();
  const [adding, setAdding] = useState(false);
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: SORT,
  });
  const compliance = values.compliance as VehicleCompliance | undefined;
  const list = useVehicleList({ q, compliance, ...sortQuery });
  const { rows: vehicles, total, totalCapped } = pagedRows(list.data);
  const open = (id: string) => navigate(`/vehicles/${id}`);

  return (
    <Page
      title={m.vehiclesTitle()}
      actions={
        <Group gap="sm">
          <ExportButton path="/vehicles/export.csv" query={{ q, compliance, ...sortQuery }} />
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            {m.vehicleAddButton()}
          </Button>
        </Group>
      }
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.vehiclesSearchLabel()}
          placeholder={m.vehiclesSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={380}
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
      </Group>
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.vehiclesLoading()} />
      ) : (
        <>
          <ListSummary
            shown={vehicles.length}
            total={total}
            totalCapped={totalCapped}
            noun={m.vehiclesNoun()}
            query={q}
            empty={m.vehiclesEmpty()}
          />
          {vehicles.length > 0 && (
            <ListTable
              label={m.vehiclesTitle()}
              sorting={{ ...sort, onSort: setSort }}
              columns={[
                { label: m.vehicleRegistrationNumber(), sort: 'registrationNumber' },
                m.vehicleMakeAndModel(),
                m.tripsFilterCarType(),
                m.vehicleAgeShort(),
                m.vehicleDriver(),
                m.driversFranchise(),
              ]}
            >
              {vehicles.map((vehicle) => (
                <tr
                  key={vehicle.id}
                  role="row"
                  data-clickable
                  onClick={() => open(vehicle.id)}
                  onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && open(vehicle.id)}
                  tabIndex={0}
                  aria-label={m.vehicleOpen({ number: formatRegistration(vehicle.registrationNumber) })}
                >
                  <Cell label="">
                    <span className={listTableClasses.title}>
                      {formatRegistration(vehicle.registrationNumber)}
                    </span>
                    <VehicleComplianceBadge vehicle={vehicle} />
                  </Cell>
                  <Cell label={m.vehicleMakeAndModel()}>
                    {makeAndModel(vehicle.make, vehicle.model) || m.noInfo()}
                  </Cell>
                  <Cell label={m.tripsFilterCarType()}>
                    {vehicle.carType ? carTypeLabel(vehicle.carType) : m.noInfo()}
                  </Cell>
                  <Cell label={m.vehicleAgeShort()}>{vehicleAge(vehicle)}</Cell>
                  <Cell label={m.vehicleDriver()}>{vehicle.driverName ?? m.vehicleNoDriver()}</Cell>
                  <Cell label={m.driversFranchise()}>{vehicle.franchiseName ?? m.driversNotAssigned()}</Cell>
                </tr>
              ))}
            </ListTable>
          )}
          <LoadMoreButton query={list}>{m.vehiclesLoadMore()}</LoadMoreButton>
        </>
      )}
      {adding && (
        <Suspense fallback={null}>
          <VehicleDialog onClose={() => setAdding(false)} onCreated={(vehicle) => open(vehicle.id)} />
        </Suspense>
      )}
    </Page>
  );
}
