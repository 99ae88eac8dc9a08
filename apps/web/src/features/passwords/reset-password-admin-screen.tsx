import {
  Anchor,
  Button,
  Center,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { showNotification } from '../../lib/notify';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { m } from '@bmet/shared/paraglide/messages';
import { can } from '@bmet/shared/permissions';
import { useSession } from '../../lib/session-context';
import { useAdminEmails, useSendResetLink } from './api';

/**
 * The spec's admin password reset. A signed-in admin chooses from the admins' emails ('Select
 * Email:'); anyone else types an email, and is never shown the list of admins.
 */
export function ResetPasswordAdminScreen() {
  const { session } = useSession();
  const listsAdmins = can(session?.role, ['admins', 'list']);
  const admins = useAdminEmails(listsAdmins);
  const send = useSendResetLink();
  const [email, setEmail] = useState('');

  useEffect(() => {
    document.title = `${m.passwordsResetAdminTitle()} · Book-My-ETaxi`;
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const chosen = email.trim();
    if (!chosen) {
      showNotification({
        color: 'red',
        message: listsAdmins ? m.selectEmail() : m.enterEmailToReset(),
      });
      return;
    }
    send.mutate(chosen, {
      onSuccess: () => showNotification({ color: 'teal', message: m.resetEmailSentAdmin() }),
      onError: (error) =>
        showNotification({ color: 'red', message: m.resetEmailFailedAdmin({ message: error.message }) }),
    });
  };

  return (
    <Center mih="calc(100dvh - 100px)">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h3">
              {m.passwordsResetAdminTitle()}
            </Title>
            {listsAdmins ? (
              admins.isPending ? (
                <Group gap="xs" role="status">
                  <Loader size="xs" />
                  <Text size="sm">{m.passwordsLoadingAdminEmails()}</Text>
                </Group>
              ) : admins.isError ? (
                <Text c="red" role="alert">
                  {admins.error.message}
                </Text>
              ) : (
                <NativeSelect
                  label={m.selectEmailLabel()}
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  data={[
                    { value: '', label: m.passwordsChooseAdmin(), disabled: true },
                    ...admins.data.map((address) => ({ value: address, label: address })),
                  ]}
                />
              )
            ) : (
              <>
                <Text size="sm" c="dimmed">
                  {m.passwordsResetExplanation()}
                </Text>
                <TextInput
                  label={m.commonEmail()}
                  type="email"
                  autoComplete="username"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                />
              </>
            )}
            <Button type="submit" loading={send.isPending} disabled={listsAdmins && !admins.data} fullWidth>
              {m.sendResetLink()}
            </Button>
            <Anchor component={Link} to={session ? '/welcome' : '/admin'} size="sm" ta="center">
              {session ? m.commonBackToWelcome() : m.commonBackToSignIn()}
            </Anchor>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
