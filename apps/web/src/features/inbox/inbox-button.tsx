import { ActionIcon, Popover } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconBell } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { QueryProvider } from '../../lib/query-client';
import { listenToTabStream, tabStreamStatus } from '../../lib/tab-stream';
import { INBOX_KEY, useUnreadCount } from './api';

// The list loads on the first opening: the header of every screen carries only the bell.
const InboxPanel = lazy(() => import('./inbox-panel').then((module) => ({ default: module.InboxPanel })));

// Styled in place, as the search button is: a style sheet of its own would be one more file for
// the first load of every screen. White on red 8 passes contrast in both schemes.
const COUNT = {
  position: 'absolute',
  top: -4,
  right: -6,
  minWidth: 16,
  height: 16,
  padding: '0 4px',
  borderRadius: 8,
  background: 'var(--mantine-color-red-8)',
  color: 'var(--mantine-color-white)',
  fontSize: 10,
  fontWeight: 700,
  lineHeight: '16px',
  textAlign: 'center',
  pointerEvents: 'none',
} as const;

/** In the header, outside the screens' data layer: the same cache, brought along. */
export function InboxButton() {
  return (
    <QueryProvider>
      <Inbox />
    </QueryProvider>
  );
}

/**
 * The inbox in the header: a bell with the number unread, opening the newest notifications. News
 * comes on the tab's stream (an SOS alert raised, a grievance due) and the count is asked again.
 */
function Inbox() {
  const [opened, setOpened] = useState(false);
  const [wanted, setWanted] = useState(false);
  const client = useQueryClient();
  const unread = useUnreadCount().data ?? 0;

  useEffect(() => {
    // The stream may be up already (the banner opened it): its next `open` is then a reopening.
    let streamOpened = tabStreamStatus() === 'live';
    return listenToTabStream((event) => {
      // A stream opened again may have missed news while it was down: its `open` asks again too.
      const reopened = event.event === 'open' && streamOpened;
      if (event.event === 'open') streamOpened = true;
      if (
        reopened ||
        event.event === 'inbox' ||
        (event.event === 'sos' && event.data.includes('"kind":"raised"'))
      )
        void client.invalidateQueries({ queryKey: INBOX_KEY });
    });
  }, [client]);

  const label = unread > 0 ? `${m.inboxButton()}, ${m.inboxUnread({ count: unread })}` : m.inboxButton();
  return (
    <span style={{ position: 'relative', display: 'inline-flex' }}>
      <Popover
        opened={opened}
        onChange={setOpened}
        position="bottom-end"
        width={360}
        shadow="md"
        trapFocus
        returnFocus
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-label={label}
            onClick={() => {
              setWanted(true);
              setOpened((open) => !open);
            }}
          >
            <IconBell size={18} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} aria-label={m.inboxButton()}>
          {wanted && (
            <Suspense fallback={null}>
              <InboxPanel onNavigate={() => setOpened(false)} />
            </Suspense>
          )}
        </Popover.Dropdown>
      </Popover>
      {unread > 0 && (
        <span aria-hidden style={COUNT}>
          {unread > 99 ? '99+' : unread}
        </span>
      )}
    </span>
  );
}
