import { showNotification } from '../../lib/notify';
import { useState } from 'react';
import type { State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { CityDealer } from '@bmet/shared/schemas/account';
import { AccountEditForm } from '../../components/account-edit-form';
import { AccountField, AccountPopup } from '../../components/account-popup';
import { useDeleteCityDealer, useUpdateCityDealer } from './api';

function EditForm({ dealer, onDone }: { dealer: CityDealer; onDone: () => void }) {
  const [name, setName] = useState(dealer.name);
  const [state, setState] = useState<State | null>(dealer.state);
  const update = useUpdateCityDealer();
  const save = () =>
    update.mutate(
      { id: dealer.id, changes: { name, ...(state ? { state } : {}) } },
      {
        onSuccess: () => {
          showNotification({ color: 'teal', message: m.dealersSaved() });
          onDone();
        },
        onError: (error) => showNotification({ color: 'red', message: error.message }),
      },
    );
  return (
    <AccountEditForm
      name={name}
      onNameChange={setName}
      state={state}
      onStateChange={setState}
      saving={update.isPending}
      onSave={save}
      onCancel={onDone}
    />
  );
}

/**
 * The spec's popup of a dealer row (name, email, state), closed by clicking outside; admins also
 * see its counts, edit it, disable or enable it, and delete it.
 */
export function CityDealerPopup({ dealer, onClose }: { dealer: CityDealer | null; onClose: () => void }) {
  const update = useUpdateCityDealer();
  const remove = useDeleteCityDealer();
  return (
    <AccountPopup
      account={dealer}
      onClose={onClose}
      details={(current) => (
        <>
          <AccountField label={m.dealersFranchises()}>{current.franchiseCount}</AccountField>
          <AccountField label={m.dealersDrivers()}>{current.driverCount}</AccountField>
        </>
      )}
      editForm={(current, done) => <EditForm dealer={current} onDone={done} />}
      update={update}
      remove={remove}
      removeNote={m.dealersRemoveNote()}
    />
  );
}
