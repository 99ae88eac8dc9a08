import { act, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isDate, isUuid, oneOf } from './param-checks';
import {
  readSort,
  sortParams,
  toggledSort,
  useListParams,
  withChanges,
  type SortSpec,
} from './use-list-params';

type Field = 'createdAt' | 'name' | 'state';
const NEWEST_FIRST: SortSpec<Field> = { fields: ['createdAt', 'name', 'state'], defaultOrder: 'desc' };
const PARAMS = { status: oneOf(['open', 'closed']), record: isUuid, from: isDate };
const ID = '7d8e1f7a-1111-4c2b-9a1e-0a0b0c0d0e0f';

describe('the sort in an address', () => {
  const read = (query: string) => readSort(new URLSearchParams(query), NEWEST_FIRST);

  it('is the list’s own order without one', () => {
    expect(read('')).toEqual({ field: 'createdAt', order: 'desc', isDefault: true });
  });

  it('starts another field in ascending order, and takes an order given', () => {
    expect(read('sort=name')).toEqual({ field: 'name', order: 'asc', isDefault: false });
    expect(read('sort=name&order=desc')).toEqual({ field: 'name', order: 'desc', isDefault: false });
    // `order` alone turns the list's own order round.
    expect(read('order=asc')).toEqual({ field: 'createdAt', order: 'asc', isDefault: false });
  });

  it('ignores fields and orders the list does not know', () => {
    expect(read('sort=password&order=sideways')).toEqual({
      field: 'createdAt',
      order: 'desc',
      isDefault: true,
    });
    expect(read('sort=NAME&order=desc')).toEqual({ field: 'createdAt', order: 'desc', isDefault: true });
  });

  it('turns a sorted column round and starts another in its natural order', () => {
    const current = read('sort=name');
    expect(toggledSort(NEWEST_FIRST, current, 'name')).toEqual({ field: 'name', order: 'desc' });
    expect(toggledSort(NEWEST_FIRST, current, 'state')).toEqual({ field: 'state', order: 'asc' });
    expect(toggledSort(NEWEST_FIRST, current, 'createdAt')).toEqual({ field: 'createdAt', order: 'desc' });
  });

  it('writes nothing for the list’s own order', () => {
    expect(sortParams(NEWEST_FIRST, { field: 'createdAt', order: 'desc' })).toEqual({
      sort: undefined,
      order: undefined,
    });
    expect(sortParams(NEWEST_FIRST, { field: 'createdAt', order: 'asc' })).toEqual({
      sort: 'createdAt',
      order: 'asc',
    });
  });

  it('applies changes to a query, removing emptied parameters', () => {
    expect(withChanges('?q=rao&status=open', { status: undefined, sort: 'name' })).toBe('?q=rao&sort=name');
    expect(withChanges('?q=rao', { q: '' })).toBe('');
  });
});

describe('the checks of address values', () => {
  it('take real days only', () => {
    expect(isDate('2028-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2026-13-01')).toBe(false);
    expect(isDate('0000-01-01')).toBe(false);
    expect(isDate('yesterday')).toBe(false);
  });
});

/** The hook in a router at `entry`, with the address it writes and a way to go Back. */
function renderListParams(entry: string) {
  const seen: { location: string; back: () => void } = { location: entry, back: () => {} };
  function Probe() {
    const location = useLocation();
    const navigate = useNavigate();
    seen.location = `${location.pathname}${location.search}`;
    seen.back = () => navigate(-1);
    return null;
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <MemoryRouter initialEntries={['/start', entry]} initialIndex={1}>
      {children}
      <Probe />
    </MemoryRouter>
  );
  const hook = renderHook(() => useListParams({ params: PARAMS, sort: NEWEST_FIRST }), { wrapper });
  return { ...hook, seen };
}

describe('useListParams', () => {
  afterEach(() => vi.useRealTimers());

  it('reads the view from the address, ignoring what it does not know', () => {
    const { result } = renderListParams(
      `/list?q=%20rao%20&status=open&record=${ID}&from=2026-02-31&sort=name&order=desc`,
    );
    expect(result.current.q).toBe('rao');
    expect(result.current.search).toBe('rao');
    expect(result.current.values).toEqual({ status: 'open', record: ID, from: undefined });
    expect(result.current.sort).toEqual({ field: 'name', order: 'desc', isDefault: false });
    expect(result.current.sortQuery).toEqual({ sort: 'name', order: 'desc' });

    const junk = renderListParams('/list?status=everything&record=1&sort=secret&order=up').result;
    expect(junk.current.values).toEqual({ status: undefined, record: undefined, from: undefined });
    expect(junk.current.sort.isDefault).toBe(true);
    expect(junk.current.sortQuery).toEqual({});
  });

  it('writes a filter or a sort as a new entry, which Back leaves', () => {
    const { result, seen } = renderListParams('/list?q=rao');
    act(() => result.current.update({ status: 'closed' }));
    expect(seen.location).toBe('/list?q=rao&status=closed');
    act(() => result.current.setSort('name'));
    expect(seen.location).toBe('/list?q=rao&status=closed&sort=name&order=asc');
    act(() => result.current.setSort('name'));
    expect(seen.location).toBe('/list?q=rao&status=closed&sort=name&order=desc');
    act(() => seen.back());
    expect(seen.location).toBe('/list?q=rao&status=closed&sort=name&order=asc');
    expect(result.current.sort).toEqual({ field: 'name', order: 'asc', isDefault: false });
    act(() => seen.back());
    act(() => seen.back());
    expect(seen.location).toBe('/list?q=rao');
  });

  it('builds changes made before the next render on each other', () => {
    const { result, seen } = renderListParams('/list');
    act(() => {
      result.current.update({ status: 'open' });
      result.current.update({ from: '2026-01-05' });
    });
    expect(seen.location).toBe('/list?status=open&from=2026-01-05');
  });

  it('puts the search in the address once typing pauses, replacing the entry', () => {
    vi.useFakeTimers();
    const { result, seen } = renderListParams('/list?status=open');
    act(() => result.current.setSearch('ra'));
    act(() => vi.advanceTimersByTime(50));
    act(() => result.current.setSearch('rao '));
    expect(result.current.search).toBe('rao ');
    expect(seen.location).toBe('/list?status=open');
    act(() => vi.advanceTimersByTime(200));
    expect(seen.location).toBe('/list?status=open&q=rao');
    expect(result.current.q).toBe('rao');
    // What was typed stays as typed, trailing space and all.
    expect(result.current.search).toBe('rao ');
    // Replaced, not added: Back leaves the list.
    act(() => seen.back());
    expect(seen.location).toBe('/start');
  });

  it('shows the search of the entry Back returns to', () => {
    vi.useFakeTimers();
    const { result, seen } = renderListParams('/list?q=rao');
    act(() => result.current.update({ status: 'open' }));
    act(() => result.current.setSearch('patel'));
    act(() => vi.advanceTimersByTime(200));
    expect(seen.location).toBe('/list?q=patel&status=open');
    act(() => seen.back());
    expect(seen.location).toBe('/list?q=rao');
    expect(result.current.search).toBe('rao');
    expect(result.current.q).toBe('rao');
  });
});

describe('a search box bound to the address', () => {
  it('keeps every key typed while the address catches up', async () => {
    function Box() {
      const { search, setSearch, q } = useListParams({ sort: NEWEST_FIRST, searchDelay: 5 });
      return (
        <>
          <input aria-label="search" value={search} onChange={(e) => setSearch(e.currentTarget.value)} />
          <output>{q}</output>
        </>
      );
    }
    render(
      <MemoryRouter initialEntries={['/list']}>
        <Box />
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('search'), 'Kumar Rao', { delay: 8 });
    expect(screen.getByLabelText('search')).toHaveValue('Kumar Rao');
    await vi.waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Kumar Rao'));
  });
});
