import { Button, Center, type MantineSize, type MantineSpacing } from '@mantine/core';
import { useDeferredValue, type ReactNode } from 'react';

/** The part of a paged query the button needs; TanStack Query's infinite queries have it. */
export type PagedQuery = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/** The button under a paged list that fetches the next page; absent once the server has no more. */
export function LoadMoreButton({
  query,
  size,
  mt,
  children,
}: {
  query: PagedQuery;
  size?: MantineSize;
  mt?: MantineSpacing;
  children: ReactNode;
}) {
  // Deferred as the list's rows are (ListTable), so that the button comes with the rows above it.
  const hasNextPage = useDeferredValue(query.hasNextPage, false);
  if (!hasNextPage) return null;
  return (
    <Center mt={mt}>
      <Button
        variant="default"
        size={size}
        loading={query.isFetchingNextPage}
        onClick={() => void query.fetchNextPage()}
      >
        {children}
      </Button>
    </Center>
  );
}
