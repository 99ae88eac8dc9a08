import { Anchor, Button, Group, NativeSelect } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState, type FormEvent } from 'react';
import { STATES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { missingAccountFields } from '@bmet/shared/account-fields';
import { AccountForm, useAccountFormState } from '../../components/account-form';
import { Page } from '../../components/page';
import { stateLabel } from '../../lib/format';
import { useCreateCityDealer, useSendResetLink } from './api';

const EMPTY = { name: '', email: '', password: '', state: '' };

/** The spec's 'City Dealer sign up' (admins): creates an account that signs in on the City Dealer tab. */
export function CreateCityDealerScreen() {
  const [form, setForm] = useState(EMPTY);
  const create = useCreateCityDealer();
  const sendReset = useSendResetLink();
  const outcome = useAccountFormState();
  const set = (field: keyof typeof EMPTY, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    outcome.changed(field);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = missingAccountFields(form);
    if (missing.length > 0) {
      outcome.refuseMissing(missing);
      return;
    }
    create.mutate(
      { uuid: '', currentUser: '', ...form },
      {
        onSuccess: (created) => {
          outcome.succeeded({ name: form.name.trim(), href: `/cityDealer?dealer=${created.uid}` });
          setForm(EMPTY);
        },
        onError: outcome.failed,
      },
    );
  };

  const forgotPassword = () => {
    const email = form.email.trim();
    if (!email) {
      showNotification({ color: 'red', message: m.enterEmailToReset() });
      return;
    }
    sendReset.mutate(email, {
      onSuccess: () => showNotification({ color: 'teal', message: m.resetEmailSentDealer() }),
      onError: () => showNotification({ color: 'red', message: m.resetEmailErrorDealer() }),
    });
  };

  return (
    <Page title={m.cityDealerSignUp()}>
      <AccountForm
        values={form}
        errors={outcome.errors}
        created={outcome.created}
        onChange={set}
        onSubmit={submit}
      >
        <NativeSelect
          label={m.dealersState()}
          value={form.state}
          error={outcome.errors.state}
          onChange={(e) => set('state', e.currentTarget.value)}
          data={[
            { value: '', label: m.selectStatePlaceholder(), disabled: true },
            ...STATES.map((state) => ({ value: state, label: stateLabel(state) })),
          ]}
        />
        <Group justify="space-between" mt="xs">
          <Anchor component="button" type="button" size="sm" onClick={forgotPassword}>
            {m.forgotPassword()}
          </Anchor>
          <Button type="submit" loading={create.isPending}>
            {m.signUp()}
          </Button>
        </Group>
      </AccountForm>
    </Page>
  );
}
