import { Button, Group, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useNavigate } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { TimeAgo } from '../../components/time-ago';
import { useInbox, useMarkAllRead, useMarkRead } from './api';
import { notificationLink, notificationText } from './inbox-text';

/** The newest notifications: unread in bold with a dot; opening one marks it read. */
export function InboxPanel({ onNavigate }: { onNavigate: () => void }) {
  const inbox = useInbox();
  const markRead = useMarkRead();
  const markAll = useMarkAllRead();
  const navigate = useNavigate();
  const rows = inbox.data?.pages.flatMap((page) => page.data) ?? [];
  const unread = inbox.data?.pages[0]?.unread ?? 0;
  return (
    <Stack gap={0}>
      <Group justify="space-between" px="sm" py="xs" wrap="nowrap">
        <Text fw={700} size="sm" component="h2">
          {m.inboxButton()}
        </Text>
        <Button
          variant="subtle"
          size="compact-sm"
          disabled={unread === 0}
          loading={markAll.isPending}
          onClick={() => markAll.mutate()}
        >
          {m.inboxMarkAllRead()}
        </Button>
      </Group>
      {inbox.error && <ErrorAlert error={inbox.error} />}
      {inbox.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed" px="sm" pb="sm">
          {m.inboxEmpty()}
        </Text>
      )}
      <ScrollArea.Autosize mah={420}>
        <ul style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={m.inboxButton()}>
          {rows.map((notification) => {
            const isUnread = notification.readAt === null;
            return (
              <li
                key={notification.id}
                style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
              >
                <UnstyledButton
                  w="100%"
                  px="sm"
                  py="xs"
                  onClick={() => {
                    if (isUnread) markRead.mutate({ id: notification.id, read: true });
                    onNavigate();
                    void navigate(notificationLink(notification));
                  }}
                >
                  <Group gap="xs" wrap="nowrap" align="flex-start">
                    <span
                      aria-hidden
                      style={{
                        flex: 'none',
                        width: 8,
                        height: 8,
                        marginTop: 6,
                        borderRadius: 4,
                        background: isUnread ? 'var(--mantine-color-red-8)' : 'transparent',
                      }}
                    />
                    <div>
                      <Text size="sm" fw={isUnread ? 700 : 400}>
                        {notificationText(notification)}
                        {isUnread && <VisuallyHidden>{` (${m.inboxUnreadOne()})`}</VisuallyHidden>}
                      </Text>
                      <Text size="xs" c="dimmed">
                        <TimeAgo iso={notification.createdAt} />
                      </Text>
                    </div>
                  </Group>
                </UnstyledButton>
              </li>
            );
          })}
        </ul>
        {inbox.hasNextPage && (
          <Group justify="center" py="xs">
            <Button
              variant="subtle"
              size="compact-sm"
              loading={inbox.isFetchingNextPage}
              onClick={() => void inbox.fetchNextPage()}
            >
              {m.inboxOlder()}
            </Button>
          </Group>
        )}
      </ScrollArea.Autosize>
    </Stack>
  );
}
