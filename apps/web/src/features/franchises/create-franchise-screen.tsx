import { Button, Group, NativeSelect } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { missingAccountFields } from '@bmet/shared/account-fields';
import { AccountForm, useAccountFormState } from '../../components/account-form';
import { Page } from '../../components/page';
import { useCurrentUser } from '../../lib/current-user';
import { stateLabel } from '../../lib/format';
import { useSession } from '../../lib/session-context';
import { useCreateFranchise, useDealersOfState } from './api';

const EMPTY = { name: '', email: '', password: '' };

/**
 * The spec's 'Franchise Sign up'. The state defaults to the first state; a city dealer's
 * franchises work in its own state, so for a dealer the state is fixed. An admin may also choose
 * the city dealer of that state the franchise works under.
 */
export function CreateFranchiseScreen() {
  const { session } = useSession();
  const isDealer = session?.role === 'city_dealer';
  const { data: user } = useCurrentUser();
  const [form, setForm] = useState(EMPTY);
  const [chosenState, setChosenState] = useState<State>(STATES[0]);
  const [dealerId, setDealerId] = useState('');
  const state: State | null = isDealer ? (user?.state ?? null) : chosenState;
  const dealers = useDealersOfState(state, !isDealer);
  const create = useCreateFranchise();
  const outcome = useAccountFormState();
  const set = (field: keyof typeof EMPTY, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    outcome.changed(field);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingAccountFields({ ...form, state });
    if (missing.length > 0 || !state) {
      outcome.refuseMissing(missing);
      return;
    }
    create.mutate(
      { uuid: '', currentUser: '', ...form, state, ...(dealerId ? { dealerId } : {}) },
      {
        onSuccess: (created) => {
          outcome.succeeded({ name: form.name.trim(), href: `/displayFranchise?franchise=${created.uid}` });
          setForm(EMPTY);
        },
        onError: outcome.failed,
      },
    );
  };

  return (
    <Page title={m.franchiseSignUp()}>
      <AccountForm
        values={form}
        errors={outcome.errors}
        created={outcome.created}
        onChange={set}
        onSubmit={submit}
      >
        {isDealer ? (
          <NativeSelect
            label={m.franchisesState()}
            description={m.franchisesOwnState()}
            value={state ?? ''}
            disabled
            data={state ? [{ value: state, label: stateLabel(state) }] : [{ value: '', label: '...' }]}
          />
        ) : (
          <>
            <NativeSelect
              label={m.franchisesState()}
              value={chosenState}
              onChange={(e) => {
                setChosenState(e.currentTarget.value as State);
                setDealerId('');
              }}
              data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
            />
            <NativeSelect
              label={m.franchisesCityDealer()}
              error={outcome.errors.dealerId}
              description={m.franchisesCityDealerDescription()}
              value={dealerId}
              onChange={(e) => setDealerId(e.currentTarget.value)}
              data={[
                {
                  value: '',
                  label: dealers.isPending ? m.franchisesLoadingDealers() : m.franchisesNoCityDealer(),
                },
                ...(dealers.data ?? []).map((dealer) => ({
                  value: dealer.id,
                  label: dealer.name || dealer.email,
                })),
              ]}
            />
          </>
        )}
        <Group justify="flex-end" mt="xs">
          <Button type="submit" loading={create.isPending}>
            {m.createUser()}
          </Button>
        </Group>
      </AccountForm>
    </Page>
  );
}
