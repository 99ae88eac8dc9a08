import {
  Alert,
  Button,
  Divider,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Page } from '../../components/page';
import { useResetSecondFactor, useUpdatePassword } from './api';

/**
 * The spec's update-password form (admins). The server's answer is shown, success or failure
 * (the spec swallowed failures); the account's other sessions end. Below it, the same email's
 * second factor can be cleared, for an owner who lost it.
 */
export function UpdatePasswordScreen() {
  const [email, setEmail] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const update = useUpdatePassword();
  const resetSecondFactor = useResetSecondFactor();
  const [confirmingReset, setConfirmingReset] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !newPassword) {
      update.reset();
      showNotification({ color: 'red', message: m.enterEmailAndPassword() });
      return;
    }
    update.mutate({ email, newPassword }, { onSuccess: () => setNewPassword('') });
  };

  const askToResetSecondFactor = () => {
    resetSecondFactor.reset();
    if (!email.trim()) {
      showNotification({ color: 'red', message: m.passwordsEnterEmailFirst() });
      return;
    }
    setConfirmingReset(true);
  };

  return (
    <Page title={m.updatePassword()}>
      <Paper withBorder p="lg" maw={480} w="100%">
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            {update.isSuccess && (
              <Alert color="teal" role="status">
                {update.data.message}
              </Alert>
            )}
            {update.isError && (
              <Alert color="red" role="alert">
                {update.error.message}
              </Alert>
            )}
            <TextInput
              label={m.commonEmail()}
              type="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              autoComplete="off"
            />
            <PasswordInput
              label={m.passwordsNewPassword()}
              description={m.commonPasswordRule({ min: PASSWORD_MIN_LENGTH })}
              value={newPassword}
              onChange={(e) => setNewPassword(e.currentTarget.value)}
              autoComplete="new-password"
            />
            <Group justify="flex-end" mt="xs">
              <Button type="submit" loading={update.isPending}>
                {m.updatePassword()}
              </Button>
            </Group>
          </Stack>
        </form>
        <Divider my="lg" />
        <Stack gap="sm" component="section" aria-labelledby="reset-second-factor">
          <Title order={3} size="h4" id="reset-second-factor">
            {m.secondFactorTitle()}
          </Title>
          <Text size="sm">{m.passwordsResetSecondFactorText()}</Text>
          {resetSecondFactor.isSuccess && (
            <Alert color="teal" role="status">
              {resetSecondFactor.data.message}
            </Alert>
          )}
          {resetSecondFactor.isError && (
            <Alert color="red" role="alert">
              {resetSecondFactor.error.message}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="light" color="red" onClick={askToResetSecondFactor}>
              {m.passwordsResetSecondFactor()}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <ConfirmDialog
        opened={confirmingReset}
        title={m.passwordsResetSecondFactorConfirm({ email: email.trim() })}
        confirmLabel={m.passwordsResetSecondFactor()}
        loading={resetSecondFactor.isPending}
        onClose={() => setConfirmingReset(false)}
        onConfirm={() =>
          resetSecondFactor.mutate({ email: email.trim() }, { onSettled: () => setConfirmingReset(false) })
        }
      >
        {m.passwordsResetSecondFactorConfirmText()}
      </ConfirmDialog>
    </Page>
  );
}
