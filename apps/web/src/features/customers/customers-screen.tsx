import { Group } from '@mantine/core';
import { lazy } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { CUSTOMER_SORTS, DEFAULT_ORDERS } from '@bmet/shared/schemas/sort';
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
import { isUuid } from '../../lib/param-checks';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import { OnDemand } from '../../components/on-demand';
import { useCustomerList, type CustomerSort } from './api';

const CustomerPopup = lazy(() => import('./customer-popup').then((m) => ({ default: m.CustomerPopup })));

const SORT: SortSpec<CustomerSort> = { fields: CUSTOMER_SORTS, defaultOrder: DEFAULT_ORDERS.customers };
const PARAMS = { customer: isUuid };

const sortOptions = (): SortOption<CustomerSort>[] => [
  { field: 'name', order: 'asc', label: m.sortNameAsc() },
  { field: 'name', order: 'desc', label: m.sortNameDesc() },
];

/**
 * Customers (admins only): searched and paged on the server; a row opens its ratings. The search,
 * the sort and the customer open (`?customer=ID`) live in the address.
 */
export function CustomersScreen() {
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: SORT,
  });
  const selected = values.customer ?? null;
  const setSelected = (id: string | null) => update({ customer: id ?? undefined });
  const list = useCustomerList({ q, ...sortQuery });
  const { rows: customers, total, totalCapped } = pagedRows(list.data);

  return (
    <Page
      title={m.customersTitle()}
      actions={<ExportButton path="/customers/export.csv" query={{ q, ...sortQuery }} />}
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.customersSearchLabel()}
          placeholder={m.customersSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={380}
        />
        <SortSelect options={sortOptions()} sort={sort} onChange={setSort} phoneOnly />
      </Group>
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label={m.customersLoading()} />
      ) : (
        <>
          <ListSummary
            shown={customers.length}
            total={total}
            totalCapped={totalCapped}
            noun={m.customersNoun()}
            query={q}
            empty={m.customersEmpty()}
          />
          {customers.length > 0 && (
            <ListTable
              label={m.customersTitle()}
              sorting={{ ...sort, onSort: setSort }}
              columns={[
                { label: m.customersColumnName(), sort: 'name' },
                m.customersColumnEmail(),
                m.customersColumnPhoneNumber(),
              ]}
            >
              {customers.map((customer) => (
                <tr
                  key={customer.id}
                  role="row"
                  data-clickable
                  onClick={() => setSelected(customer.id)}
                  onKeyDown={(event) =>
                    (event.key === 'Enter' || event.key === ' ') && setSelected(customer.id)
                  }
                  tabIndex={0}
                  aria-label={m.customersOpen({ name: customer.name })}
                >
                  <Cell label="">
                    <span className={listTableClasses.title}>{customer.name}</span>
                  </Cell>
                  <Cell label={m.customersColumnEmail()}>{customer.email ?? '-'}</Cell>
                  <Cell label={m.customersColumnPhoneNumber()}>{customer.phoneNumber ?? '-'}</Cell>
                </tr>
              ))}
            </ListTable>
          )}
          <LoadMoreButton query={list}>{m.customersLoadMore()}</LoadMoreButton>
        </>
      )}
      <OnDemand open={selected !== null}>
        <CustomerPopup id={selected} onClose={() => setSelected(null)} />
      </OnDemand>
    </Page>
  );
}
