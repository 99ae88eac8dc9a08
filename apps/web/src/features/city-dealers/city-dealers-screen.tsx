import { Group, NativeSelect } from '@mantine/core';
import { lazy } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { ACCOUNT_SORT, AccountList, accountSortOptions } from '../../components/account-list';
import { ExportButton } from '../../components/export-button';
import { Page } from '../../components/page';
import { SearchInput } from '../../components/search-input';
import { SortSelect } from '../../components/sort-select';
import { stateLabel } from '../../lib/format';
import { pagedRows } from '../../lib/paged-rows';
import { isUuid, oneOf } from '../../lib/param-checks';
import { useListParams } from '../../lib/use-list-params';
import { useCityDealer, useCityDealerList } from './api';
import { OnDemand } from '../../components/on-demand';

const CityDealerPopup = lazy(() =>
  import('./city-dealer-popup').then((m) => ({ default: m.CityDealerPopup })),
);

const PARAMS = { state: oneOf(STATES), dealer: isUuid };

/**
 * The spec's city dealer list (admins): newest first, searched and paged on the server. The
 * search, state, sort and the dealer open (`?dealer=ID`) live in the address.
 */
export function CityDealersScreen() {
  const { values, update, search, setSearch, q, sort, setSort, sortQuery } = useListParams({
    params: PARAMS,
    sort: ACCOUNT_SORT,
  });
  const state = values.state as State | undefined;
  const list = useCityDealerList({ q, state, ...sortQuery });
  const { rows: dealers, total, totalCapped } = pagedRows(list.data);
  // The popup shows the row as last loaded, so that an edit shows at once; a dealer the loaded
  // pages do not hold (a shared link) is read alone.
  const listed = dealers.find((dealer) => dealer.id === values.dealer);
  const single = useCityDealer(values.dealer, list.isSuccess && !listed);
  const selected = listed ?? single.data ?? null;

  return (
    <Page
      title={m.dealersTitle()}
      actions={<ExportButton path="/city_dealer/export.csv" query={{ q, state, ...sortQuery }} />}
    >
      <Group align="end" wrap="wrap">
        <SearchInput
          label={m.dealersSearchLabel()}
          placeholder={m.dealersSearchPlaceholder()}
          value={search}
          onChange={setSearch}
          width={380}
        />
        <NativeSelect
          label={m.commonState()}
          value={state ?? ''}
          onChange={(event) => update({ state: event.currentTarget.value })}
          data={[
            { value: '', label: m.filterAllStates() },
            ...STATES.map((option) => ({ value: option, label: stateLabel(option) })),
          ]}
          w={{ base: '100%', xs: 200 }}
        />
        <SortSelect options={accountSortOptions()} sort={sort} onChange={setSort} />
      </Group>
      <AccountList
        list={list}
        accounts={dealers}
        total={total}
        totalCapped={totalCapped}
        noun={m.dealersNoun()}
        query={q}
        sort={sort}
        onSort={setSort}
        onOpen={(dealer) => update({ dealer: dealer.id })}
      />
      <OnDemand open={selected !== null}>
        <CityDealerPopup dealer={selected} onClose={() => update({ dealer: undefined })} />
      </OnDemand>
    </Page>
  );
}
