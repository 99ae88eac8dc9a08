import { UnstyledButton } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useCurrentUser } from '../lib/current-user';
import { QueryProvider } from '../lib/query-client';
import { useSession } from '../lib/session-context';
import { AccountMenuLabel } from './account-menu-label';
import { roleLabel } from '@bmet/shared/role-label';
import { m } from '@bmet/shared/paraglide/messages';

const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));

type Props = { onLogout: (endSession: () => void) => Promise<void> };

/** The signed-in user's name in the header; the menu (profile, logout) loads when first asked for. */
export function AccountButton(props: Props) {
  return (
    <QueryProvider>
      <AccountButtonInner {...props} />
    </QueryProvider>
  );
}

function AccountButtonInner({ onLogout }: Props) {
  const { session } = useSession();
  const { data: user } = useCurrentUser();
  const [wanted, setWanted] = useState(false);
  if (!session) return null;
  const name = user?.displayName || user?.email || roleLabel(session.role);
  const trigger = (
    <UnstyledButton
      aria-label={m.appAccountMenu({ name })}
      aria-haspopup="menu"
      onClick={() => setWanted(true)}
    >
      <AccountMenuLabel name={name} />
    </UnstyledButton>
  );
  if (!wanted) return trigger;
  return (
    <Suspense fallback={trigger}>
      <AccountMenu name={name} role={session.role} onLogout={onLogout} />
    </Suspense>
  );
}
