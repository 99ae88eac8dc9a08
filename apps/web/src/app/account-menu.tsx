import { Menu, UnstyledButton } from '@mantine/core';
import { IconLogout, IconSettings, IconShieldLock, IconUser } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Role } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import { useSession } from '../lib/session-context';
import { AccountMenuLabel } from './account-menu-label';
import { roleLabel } from '@bmet/shared/role-label';

// The account settings load when first opened.
const AccountSettingsDialog = lazy(() =>
  import('../features/account-settings/account-settings-dialog').then((module) => ({
    default: module.AccountSettingsDialog,
  })),
);

type Props = { name: string; role: Role; onLogout: (endSession: () => void) => Promise<void> };

/** The account menu, loaded on its first use: it opens at once, as the click that loaded it asked. */
export function AccountMenu({ name, role, onLogout }: Props) {
  const { endSession } = useSession();
  // Kept mounted once loaded, so that closing returns the focus; a new round starts each opening afresh.
  const [settings, setSettings] = useState<{ opened: boolean; round: number } | null>(null);
  return (
    <>
      <Menu position="bottom-end" withinPortal defaultOpened>
        <Menu.Target>
          <UnstyledButton aria-label={m.appAccountMenu({ name })}>
            <AccountMenuLabel name={name} />
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{roleLabel(role)}</Menu.Label>
          {can(role, ['profile', 'view']) && (
            <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={14} />}>
              {m.profileTitle()}
            </Menu.Item>
          )}
          <Menu.Item
            leftSection={<IconSettings size={14} />}
            onClick={() => setSettings((before) => ({ opened: true, round: (before?.round ?? 0) + 1 }))}
          >
            {m.accountSettingsTitle()}
          </Menu.Item>
          <Menu.Item component={Link} to="/second-factor" leftSection={<IconShieldLock size={14} />}>
            {m.secondFactorTitle()}
          </Menu.Item>
          <Menu.Item
            color="red"
            leftSection={<IconLogout size={14} />}
            onClick={() => void onLogout(endSession)}
          >
            {m.logout()}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {settings && (
        <Suspense fallback={null}>
          <AccountSettingsDialog
            key={settings.round}
            opened={settings.opened}
            onClose={() => setSettings({ ...settings, opened: false })}
          />
        </Suspense>
      )}
    </>
  );
}
