import { keepPreviousData, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';

/**
 * A list read a page at a time: each page names the cursor of the next, null on the last.
 * `keepShown` keeps a list's rows on screen while a new search, filter or sort loads, instead of
 * emptying it for a moment.
 */
export function useCursorList<Page extends { nextCursor: string | null }>(
  queryKey: QueryKey,
  fetchPage: (cursor: string | undefined, signal: AbortSignal) => Promise<Page>,
  { keepShown = false }: { keepShown?: boolean } = {},
) {
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam, signal }) => fetchPage(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepShown ? keepPreviousData : undefined,
  });
}
