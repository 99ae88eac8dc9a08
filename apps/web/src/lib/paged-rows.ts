/** The page shape of the spec's lists: rows keyed by id in list order and, for most, how many match in all. */
type ListPage<T> = { data: Record<string, T>; total?: number; totalCapped?: boolean };

/**
 * The rows of every page loaded so far, in order, and the count of all that match (0 before the
 * first page); `totalCapped` when there are at least that many (the server stops counting).
 */
export function pagedRows<T>(data: { pages: ListPage<T>[] } | undefined): {
  rows: T[];
  total: number;
  totalCapped: boolean;
} {
  return {
    rows: data?.pages.flatMap((page) => Object.values(page.data)) ?? [],
    total: data?.pages[0]?.total ?? 0,
    totalCapped: data?.pages[0]?.totalCapped ?? false,
  };
}
