import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { INBOX_PAGE } from '@bmet/shared/notification-rules';
import type {
  notificationListResponseSchema,
  notificationResponseSchema,
  notificationsReadResponseSchema,
} from '@bmet/shared/schemas/notification';
import { apiRequest } from '../../lib/api-client';
import { useCursorList } from '../../lib/cursor-list';

export const INBOX_KEY = ['inbox'] as const;

/** How many notifications wait unread; asked again when the tab returns and on news from the stream. */
export function useUnreadCount() {
  return useQuery({
    queryKey: [...INBOX_KEY, 'unread'],
    queryFn: ({ signal }) =>
      apiRequest<typeof notificationListResponseSchema>('GET', '/notifications?unread=true&limit=1', {
        signal,
      }).then((r) => r.unread),
    refetchOnWindowFocus: true,
    // Documents' reminders are recorded once a day without a push: a slow look catches them.
    refetchInterval: 5 * 60_000,
  });
}

/** The inbox, newest first, a page at a time. */
export function useInbox() {
  return useCursorList([...INBOX_KEY, 'list'], (cursor, signal) =>
    apiRequest<typeof notificationListResponseSchema>(
      'GET',
      `/notifications?limit=${INBOX_PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { signal },
    ),
  );
}

export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) =>
      apiRequest<typeof notificationResponseSchema>('PATCH', `/notifications/${id}`, { body: { read } }),
    onSettled: () => client.invalidateQueries({ queryKey: INBOX_KEY }),
  });
}

export function useMarkAllRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<typeof notificationsReadResponseSchema>('POST', '/notifications/read-all'),
    onSettled: () => client.invalidateQueries({ queryKey: INBOX_KEY }),
  });
}
