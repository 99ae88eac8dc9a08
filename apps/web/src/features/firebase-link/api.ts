import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  FirebaseLinkKind,
  firebaseLinkResponseSchema,
  firebaseLinkStatusSchema,
} from '@bmet/shared/schemas/firebase-link';
import { apiRequest } from '../../lib/api-client';

/** The following instance writes what it does every 2 s: every 5 s keeps the screen current. */
export const FIREBASE_LINK_REFRESH_MS = 5_000;

export const firebaseLinkKeys = {
  status: ['firebase-link', 'status'] as const,
};

/** The link's status, or null when FIREBASE_DATABASE_URL is not set; loaded again every 5 s. */
export const firebaseLinkStatusQuery = () =>
  queryOptions({
    queryKey: firebaseLinkKeys.status,
    queryFn: ({ signal }) =>
      apiRequest<typeof firebaseLinkResponseSchema>('GET', '/firebase-link', { signal }).then((r) => r.data),
    refetchInterval: FIREBASE_LINK_REFRESH_MS,
  });

export function useFirebaseLinkStatus() {
  return useQuery(firebaseLinkStatusQuery());
}

/** POST /api/firebase-link/reread answers 202 with the status, the request in it. */
type RereadResponse = z.ZodObject<{ data: typeof firebaseLinkStatusSchema }>;

/** Asks the following instance to read one kind of record again; the status shows the request at once. */
export function useRereadKind() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kind: FirebaseLinkKind) =>
      apiRequest<RereadResponse>('POST', '/firebase-link/reread', { body: { kind } }).then((r) => r.data),
    onSuccess: (status) => client.setQueryData(firebaseLinkKeys.status, status),
  });
}
