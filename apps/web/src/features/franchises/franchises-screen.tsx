import { Group } from '@mantine/core';
import { lazy } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { ACCOUNT_SORT, AccountList, accountSortOptions } from '../../components/account-list';
import { ExportButton } from '../../components/export-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { SortSelect } from '../../components/sort-select';
import { pagedRows } from '../../lib/paged-rows';
import { isUuid } from '../../lib/param-checks';
import { useListParams } from '../../lib/use-list-params';
import { useFranchise, useFranchiseList } from './api';
import { OnDemand } from '../../components/on-demand';

const FranchisePopup = lazy(() => import('./franchise-popup').then((m) => ({ default: m.FranchisePopup })));

const PARAMS = { franchise: isUuid };

/**
 * The spec's franchise list (admins: all; a city dealer: its own): newest first, searched and
 * paged on the server. The first row carries the spec's 'New Dealer: {name}' notice. The search,
 * sort and the franchise open (`?franchise=ID`) live in the address.
 */
export function FranchisesScreen() {
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: ACCOUNT_SORT,
  });
  const list = useFranchiseList({ q, ...sortQuery });
  const { rows: franchises, total, totalCapped } = pagedRows(list.data);
  // The popup shows the row as last loaded, so that an edit shows at once; a franchise the loaded
  // pages do not hold (a shared link) is read alone.
  const listed = franchises.find((franchise) => franchise.id === values.franchise);
  const single = useFranchise(values.franchise, list.isSuccess && !listed);
  const selected = listed ?? single.data ?? null;

  return (
    <Page
      title={m.franchisesTitle()}
      actions={<ExportButton path="/franchise/export.csv" query={{ q, ...sortQuery }} />}
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.franchisesSearchLabel()}
          placeholder={m.franchisesSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={380}
        />
        <SortSelect options={accountSortOptions()} sort={sort} onChange={setSort} />
      </Group>
      <AccountList
        list={list}
        accounts={franchises}
        total={total}
        totalCapped={totalCapped}
        noun={m.franchisesNoun()}
        query={q}
        sort={sort}
        onSort={setSort}
        onOpen={(franchise) => update({ franchise: franchise.id })}
      />
      <OnDemand open={selected !== null}>
        <FranchisePopup franchise={selected} onClose={() => update({ franchise: undefined })} />
      </OnDemand>
    </Page>
  );
}
