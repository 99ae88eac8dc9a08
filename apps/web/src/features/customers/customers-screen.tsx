import { lazy, useState } from 'react';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { ListSummary } from '../../components/list-summary';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { pagedRows } from '../../lib/paged-rows';
import { useSearch } from '../../lib/use-search';
import { OnDemand } from '../../components/on-demand';
import { useCustomerList } from './api';

const CustomerPopup = lazy(() => import('./customer-popup').then((m) => ({ default: m.CustomerPopup })));

/** Customers (admins only): searched and paged on the server; a row opens its ratings. */
export function CustomersScreen() {
  const { search, setSearch, q } = useSearch();
  const [selected, setSelected] = useState<string | null>(null);
  const list = useCustomerList(q);
  const { rows: customers, total, totalCapped } = pagedRows(list.data);

  return (
    <Page title="Customers">
      <SearchInput
        label="Search customers"
        placeholder="Search by name, email or phone"
        value={search}
        onChange={setSearch}
        width={380}
      />
      {list.isError && !list.data ? (
        <ErrorAlert error={list.error} />
      ) : list.isPending ? (
        <ListLoader label="Loading customers" />
      ) : (
        <>
          <ListSummary
            shown={customers.length}
            total={total}
            totalCapped={totalCapped}
            noun="customers"
            query={q}
            empty="No customers yet."
          />
          {customers.length > 0 && (
            <ListTable label="Customers" columns={['Name', 'Email', 'Phone Number']}>
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
                  aria-label={`Open ${customer.name}`}
                >
                  <Cell label="">
                    <span className={listTableClasses.title}>{customer.name}</span>
                  </Cell>
                  <Cell label="Email">{customer.email ?? '-'}</Cell>
                  <Cell label="Phone Number">{customer.phoneNumber ?? '-'}</Cell>
                </tr>
              ))}
            </ListTable>
          )}
          <LoadMoreButton query={list}>Load more customers</LoadMoreButton>
        </>
      )}
      <OnDemand open={selected !== null}>
        <CustomerPopup id={selected} onClose={() => setSelected(null)} />
      </OnDemand>
    </Page>
  );
}
