import { useDebouncedCallback } from '@mantine/hooks';
import { useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigationType } from 'react-router';
import { SORT_ORDERS, type SortOrder } from '@bmet/shared/schemas/sort';
import type { ParamCheck } from './param-checks';

/**
 * A list's view kept in its address: the search (`q`), its filters, its sort (`sort`, `order`)
 * and the record open over it. A link reproduces the view, Back returns to the one before, a
 * reload keeps it. Values the address holds are checked: one the list does not know is ignored,
 * as if it were absent, and the list shows its default instead.
 */

/** A list's sortable fields, the first its default, and the order of that default. */
export type SortSpec<F extends string> = { fields: readonly [F, ...F[]]; defaultOrder: SortOrder };

/** The sort a list is shown in; `isDefault` when it is the list's own order (nothing to ask for). */
export type ListSort<F extends string> = { field: F; order: SortOrder; isDefault: boolean };

/** Changes to the address: a value sets a parameter, `undefined` or '' removes it. */
export type ParamChanges = Record<string, string | undefined>;

/** The longest search the lists take (their query schemas' limit). */
const MAX_QUERY = 100;

const searchOf = (params: URLSearchParams) => (params.get('q') ?? '').trim().slice(0, MAX_QUERY);

/** The order a field starts in: the default field in the list's order, any other from A, oldest or lowest. */
export function naturalOrder<F extends string>(spec: SortSpec<F>, field: F): SortOrder {
  return field === spec.fields[0] ? spec.defaultOrder : 'asc';
}

/** The sort an address asks for, with unknown fields and orders ignored. */
export function readSort<F extends string>(params: URLSearchParams, spec: SortSpec<F>): ListSort<F> {
  const asked = params.get('sort');
  const field = spec.fields.find((known) => known === asked) ?? spec.fields[0];
  const askedOrder = params.get('order');
  const order = SORT_ORDERS.find((known) => known === askedOrder) ?? naturalOrder(spec, field);
  return { field, order, isDefault: field === spec.fields[0] && order === spec.defaultOrder };
}

/**
 * The sort after a click on a column: the sorted column turns round, another starts in its
 * natural order.
 */
export function toggledSort<F extends string>(
  spec: SortSpec<F>,
  current: ListSort<F>,
  field: F,
): { field: F; order: SortOrder } {
  if (field === current.field) return { field, order: current.order === 'asc' ? 'desc' : 'asc' };
  return { field, order: naturalOrder(spec, field) };
}

/** The address parameters of a sort: none for the list's own order, so that its plain address stays plain. */
export function sortParams<F extends string>(
  spec: SortSpec<F>,
  sort: { field: F; order: SortOrder },
): ParamChanges {
  const isDefault = sort.field === spec.fields[0] && sort.order === spec.defaultOrder;
  return isDefault ? { sort: undefined, order: undefined } : { sort: sort.field, order: sort.order };
}

/** `search` with `changes` applied, as the address's query ('' or '?a=b'). */
export function withChanges(search: string, changes: ParamChanges): string {
  const next = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(name);
    else next.set(name, value);
  }
  const text = next.toString();
  return text ? `?${text}` : '';
}

const NO_CHECKS: Record<never, ParamCheck> = {};

/**
 * The view of a list as its address holds it. `params` names the list's own parameters (filters,
 * the open record) with the check of each; `sort` its sortable fields.
 *
 * The search box is typed into freely and the address follows once typing pauses (one request per
 * pause), replacing its entry: Back does not step through the letters. Any other change (a filter,
 * the sort, a record opened) is a new entry, so that Back returns to the view before it.
 */
export function useListParams<F extends string, P extends string = never>({
  params: checks = NO_CHECKS as Record<P, ParamCheck>,
  sort: sortSpec,
  searchDelay = 150,
}: {
  params?: Record<P, ParamCheck>;
  sort: SortSpec<F>;
  searchDelay?: number;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const navigationType = useNavigationType();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);

  // The router's own setter builds on the last render's parameters: two changes before the next
  // render (a filter chosen while a search is being written) would lose one. Each change builds
  // on the address as last written instead.
  const latest = useRef(location.search);

  const update = useCallback(
    (changes: ParamChanges, { replace = false }: { replace?: boolean } = {}) => {
      const search = withChanges(latest.current, changes);
      if (search === latest.current) return;
      latest.current = search;
      navigate({ search }, { replace });
    },
    [navigate],
  );

  const values = useMemo(() => {
    const read = {} as Record<P, string | undefined>;
    for (const [name, check] of Object.entries(checks) as [P, ParamCheck][]) {
      const value = params.get(name)?.trim();
      read[name] = value && check(value) ? value : undefined;
    }
    return read;
  }, [params, checks]);

  // The search: what the box shows, and what the list asks for (the address's, once typing pauses).
  const q = searchOf(params);
  const [search, setSearchText] = useState(q);
  const [shownQuery, setShownQuery] = useState(q);
  if (q !== shownQuery) {
    setShownQuery(q);
    // The box's own writes replace the entry; any other change of the search (Back, a link) is
    // shown in the box. A write landing while more is typed keeps what was typed since.
    if (navigationType !== 'REPLACE' && search.trim() !== q) setSearchText(q);
  }
  const commitSearch = useDebouncedCallback(
    (text: string) => update({ q: text.trim().slice(0, MAX_QUERY) }, { replace: true }),
    searchDelay,
  );
  useLayoutEffect(() => {
    latest.current = location.search;
    // Back or Forward while a search waits for its pause: the view returned to wins.
    if (navigationType === 'POP') commitSearch.cancel();
  }, [location.search, navigationType, commitSearch]);
  const setSearch = (text: string) => {
    setSearchText(text);
    commitSearch(text);
  };

  const sort = useMemo(() => readSort(params, sortSpec), [params, sortSpec]);

  /** Sorts by `field`: in `order`, or (a column's header) the other way round if already sorted by it. */
  const setSort = (field: F, order?: SortOrder) =>
    update(sortParams(sortSpec, order ? { field, order } : toggledSort(sortSpec, sort, field)));

  /** What to ask the API for: nothing for the list's own order, which keeps its requests as they were. */
  const sortQuery = useMemo<{ sort?: F; order?: SortOrder }>(
    () => (sort.isDefault ? {} : { sort: sort.field, order: sort.order }),
    [sort],
  );

  return { params, values, update, search, setSearch, q, sort, setSort, sortQuery };
}
