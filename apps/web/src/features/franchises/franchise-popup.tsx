import { NativeSelect } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState } from 'react';
import type { State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import type { Franchise, UpdateFranchiseBody } from '@bmet/shared/schemas/account';
import { AccountEditForm } from '../../components/account-edit-form';
import { AccountField, AccountPopup } from '../../components/account-popup';
import { useSession } from '../../lib/session-context';
import { useDealersOfState, useUpdateFranchise } from './api';

/** Name and state for its dealer or an admin; an admin also chooses the city dealer it works under. */
function EditForm({ franchise, onDone }: { franchise: Franchise; onDone: () => void }) {
  const { session } = useSession();
  const isAdmin = session?.role === 'admin';
  const [name, setName] = useState(franchise.name);
  const [state, setState] = useState<State | null>(franchise.state);
  const [dealerId, setDealerId] = useState(franchise.dealerId ?? '');
  const dealers = useDealersOfState(state, isAdmin);
  const update = useUpdateFranchise();

  // A dealer it works under stays listed even when disabled since.
  const dealerOptions = [
    { value: '', label: m.franchisesNoCityDealer() },
    ...(franchise.dealerId &&
    state === franchise.state &&
    !dealers.data?.some((d) => d.id === franchise.dealerId)
      ? [{ value: franchise.dealerId, label: franchise.dealerName ?? m.franchisesCurrentCityDealer() }]
      : []),
    ...(dealers.data ?? []).map((dealer) => ({ value: dealer.id, label: dealer.name || dealer.email })),
  ];

  const save = () => {
    const changes: UpdateFranchiseBody = { name };
    if (state && state !== franchise.state) changes.state = state;
    if (isAdmin && (dealerId || null) !== franchise.dealerId) changes.dealerId = dealerId || null;
    update.mutate(
      { id: franchise.id, changes },
      {
        onSuccess: () => {
          showNotification({ color: 'teal', message: m.franchisesSaved() });
          onDone();
        },
        onError: (error) => showNotification({ color: 'red', message: error.message }),
      },
    );
  };

  return (
    <AccountEditForm
      name={name}
      onNameChange={setName}
      state={state}
      onStateChange={(chosen) => {
        setState(chosen);
        setDealerId('');
      }}
      stateDisabled={!isAdmin}
      stateDescription={isAdmin ? undefined : m.franchisesOwnState()}
      saving={update.isPending}
      onSave={save}
      onCancel={onDone}
    >
      {isAdmin && (
        <NativeSelect
          label={m.franchisesCityDealer()}
          value={dealerId}
          onChange={(e) => setDealerId(e.currentTarget.value)}
          data={dealerOptions}
        />
      )}
    </AccountEditForm>
  );
}

/**
 * The spec's popup of a franchise row (name, email, state), closed by clicking outside; with its
 * city dealer and drivers, and for those who manage it: edit, disable and enable.
 */
export function FranchisePopup({ franchise, onClose }: { franchise: Franchise | null; onClose: () => void }) {
  const { session } = useSession();
  const update = useUpdateFranchise();
  const canManage = can(session?.role, ['franchises', 'update']);
  return (
    <AccountPopup
      account={franchise}
      onClose={onClose}
      details={(current) => (
        <>
          <AccountField label={m.franchisesCityDealer()}>
            {current.dealerName ?? m.franchisesNone()}
          </AccountField>
          <AccountField label={m.franchisesDrivers()}>{current.driverCount}</AccountField>
        </>
      )}
      editForm={(current, done) => <EditForm franchise={current} onDone={done} />}
      update={canManage ? update : undefined}
    />
  );
}
