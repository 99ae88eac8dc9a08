import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ApiError } from './api-client';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Client errors (403, 404, validation) will not change on a retry.
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** One cache for the whole visit, shared by every screen that loads it. */
const queryClient = createQueryClient();

/**
 * The data layer (TanStack Query) around a screen. It comes with the screens that fetch data, not
 * with the first load: the sign-in screen, the one a phone meets first, goes without it.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
