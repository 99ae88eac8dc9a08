import {
  infiniteQueryOptions,
  keepPreviousData,
  useInfiniteQuery,
  type QueryKey,
} from '@tanstack/react-query';

/**
 * The options of a list read a page at a time: each page names the cursor of the next, null on
 * the last. Given to useCursorList, or to the query client to fetch a list ahead.
 */
export function cursorListOptions<Page extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/**
 * A list read a page at a time (cursorListOptions). `keepShown` keeps a list's rows on screen
 * while a new search, filter or sort loads, instead of emptying it for a moment.
 */
export function useCursorList<Page extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
  { keepShown = false }: { keepShown?: boolean } = {},
) {
  return useInfiniteQuery({
    ...cursorListOptions(queryKey, fetchPage),
    placeholderData: keepShown ? keepPreviousData : undefined,
  });
}
