import { Text, VisuallyHidden } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';
import type { CityDealer } from '@bmet/shared/schemas/account';
import { ACCOUNT_SORTS, DEFAULT_ORDERS, type SortOrder } from '@bmet/shared/schemas/sort';
import type { ListSort, SortSpec } from '../lib/use-list-params';
import { stateLabel } from '../lib/format';
import { ErrorAlert } from './error-alert';
import { ListLoader } from './list-loader';
import { ListSummary, noMatchText } from './list-summary';
import { Cell, ListTable, listTableClasses } from './list-table';
import { Tag } from './row-parts';
import { LoadMoreButton, type PagedQuery } from './load-more-button';
import type { SortOption } from './sort-select';

/** What city dealers and franchises have in common, which is all their lists and popups show of both. */
export type Account = Pick<CityDealer, 'id' | 'name' | 'email' | 'state' | 'createdAt' | 'disabled'>;

export type AccountSort = (typeof ACCOUNT_SORTS)[number];

/** City dealers and franchises sort alike: newest first unless sorted otherwise. */
export const ACCOUNT_SORT: SortSpec<AccountSort> = {
  fields: ACCOUNT_SORTS,
  defaultOrder: DEFAULT_ORDERS.accounts,
};

/** The account lists' sorts as the Sort choice names them (when they were created is no column). */
export const accountSortOptions = (): SortOption<AccountSort>[] => [
  { field: 'createdAt', order: 'desc', label: m.sortNewestFirst() },
  { field: 'createdAt', order: 'asc', label: m.sortOldestFirst() },
  { field: 'name', order: 'asc', label: m.sortNameAsc() },
  { field: 'name', order: 'desc', label: m.sortNameDesc() },
  { field: 'state', order: 'asc', label: m.sortStateAsc() },
  { field: 'state', order: 'desc', label: m.sortStateDesc() },
];

/** The states of the list query the account list shows in place of its rows. */
type AccountQuery = PagedQuery & { isPending: boolean; isError: boolean; error: Error | null; data: unknown };

/**
 * The spec's list of city dealers or franchises, newest first unless sorted otherwise: in that
 * order the first row carries the 'New Dealer: {name}' notice. A row opens with a click or Enter.
 */
export function AccountList<T extends Account>({
  list,
  accounts,
  total,
  totalCapped = false,
  noun,
  query,
  sort,
  onSort,
  onOpen,
}: {
  list: AccountQuery;
  accounts: T[];
  total: number;
  totalCapped?: boolean;
  /** The rows' plural name as the texts use it: 'city dealers'. */
  noun: string;
  query: string;
  sort: ListSort<AccountSort>;
  onSort: (field: AccountSort, order?: SortOrder) => void;
  onOpen: (account: T) => void;
}) {
  if (list.isError && !list.data) return <ErrorAlert error={list.error!} />;
  if (list.isPending) return <ListLoader label={m.listLoading({ noun })} />;
  if (total === 0) return <Text c="dimmed">{query ? noMatchText(noun, query) : m.noDealers()}</Text>;
  return (
    <>
      <ListSummary
        shown={accounts.length}
        total={total}
        totalCapped={totalCapped}
        noun={noun}
        countedAs={sort.isDefault ? m.accountNewestFirst({ noun }) : noun}
        query={query}
        empty={m.noDealers()}
      />
      <ListTable
        sorting={{ ...sort, onSort }}
        columns={[
          { label: m.commonName(), sort: 'name' },
          m.commonEmail(),
          { label: m.commonState(), sort: 'state' },
          <VisuallyHidden>{m.accountNotice()}</VisuallyHidden>,
        ]}
      >
        {accounts.map((account, index) => (
          <tr
            key={account.id}
            role="row"
            data-clickable
            onClick={() => onOpen(account)}
            onKeyDown={(event) => (event.key === 'Enter' || event.key === ' ') && onOpen(account)}
            tabIndex={0}
            aria-label={m.listOpenRow({ name: account.name || account.email })}
          >
            <Cell label="">
              <span className={listTableClasses.cellGroup}>
                <span className={listTableClasses.title}>{account.name || '-'}</span>
                {account.disabled && <Tag color="gray">{m.accountDisabledTag()}</Tag>}
              </span>
            </Cell>
            <Cell label={m.commonEmail()}>{account.email}</Cell>
            <Cell label={m.commonState()}>{stateLabel(account.state)}</Cell>
            <Cell label="">
              {index === 0 && sort.isDefault && (
                <Tag color="teal" plainCase>
                  {m.newDealer({ name: account.name || account.email })}
                </Tag>
              )}
            </Cell>
          </tr>
        ))}
      </ListTable>
      <LoadMoreButton query={list}>{m.listLoadMore({ noun })}</LoadMoreButton>
    </>
  );
}
