import { Alert, Button, Group, Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useState, type FormEvent } from 'react';
import { PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { Page } from '../../components/page';
import { useUpdatePassword } from './api';

/**
 * The spec's update-password form (admins). The server's answer is shown, success or failure
 * (the spec swallowed failures); the account's other sessions end.
 */
export function UpdatePasswordScreen() {
  const [email, setEmail] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const update = useUpdatePassword();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !newPassword) {
      update.reset();
      showNotification({ color: 'red', message: m.enterEmailAndPassword() });
      return;
    }
    update.mutate({ email, newPassword }, { onSuccess: () => setNewPassword('') });
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
      </Paper>
    </Page>
  );
}
