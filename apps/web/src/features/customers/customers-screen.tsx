import { lazy, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
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
    <Page title={m.customersTitle()} actions={<ExportButton path="/customers/export.csv" query={{ q }} />}>
      <SearchInput
        label={m.customersSearchLabel()}
        placeholder={m.customersSearchPlaceholder()}
        value={search}
        onChange={setSearch}
        width={380}
      />
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
              columns={[m.customersColumnName(), m.customersColumnEmail(), m.customersColumnPhoneNumber()]}
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
