import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
import { showNotification } from '../../lib/notify';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ACCOUNT_NAME_MAX_LENGTH } from '@bmet/shared/account-fields';
import { m } from '@bmet/shared/paraglide/messages';
import { Page } from '../../components/page';
import { useCurrentUser } from '../../lib/current-user';
import { useUpdateProfile } from './api';

/**
 * The spec's profile: display name and email, with Edit to change the display name; below, the way
 * to the second factor (a screen of its own, which every role reaches from the account menu).
 */
export function ProfileScreen() {
  const user = useCurrentUser();
  const update = useUpdateProfile();
  const [editing, setEditing] = useState(false);
  const [displayName, setDisplayName] = useState('');

  if (user.isError) {
    return (
      <Page title={m.profileTitle()}>
        <Alert color="red" role="alert">
          {user.error.message}
        </Alert>
      </Page>
    );
  }
  if (!user.data) {
    return (
      <Page title={m.profileTitle()}>
        <Text role="status">{m.loading()}</Text>
      </Page>
    );
  }
  const current = user.data;

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!displayName.trim()) {
      showNotification({ color: 'red', message: m.enterDisplayName() });
      return;
    }
    update.mutate(
      { displayName },
      {
        onSuccess: () => {
          showNotification({ color: 'teal', message: m.profileSaved() });
          setEditing(false);
        },
        onError: (error) => showNotification({ color: 'red', message: error.message }),
      },
    );
  };

  return (
    <Page title={m.profileTitle()}>
      <Paper withBorder p="lg" maw={480} w="100%">
        {editing ? (
          <form onSubmit={save} noValidate>
            <Stack gap="sm">
              <TextInput
                label={m.profileDisplayName()}
                value={displayName}
                maxLength={ACCOUNT_NAME_MAX_LENGTH}
                onChange={(e) => setDisplayName(e.currentTarget.value)}
                data-autofocus
              />
              <div>
                <Text size="xs" c="dimmed">
                  {m.commonEmail()}
                </Text>
                <Text size="sm">{current.email}</Text>
              </div>
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(false)}>
                  {m.commonCancel()}
                </Button>
                <Button type="submit" loading={update.isPending}>
                  {m.commonSave()}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Stack gap="sm">
            <div>
              <Text size="xs" c="dimmed">
                {m.profileDisplayName()}
              </Text>
              <Text size="sm">{current.displayName || '-'}</Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {m.commonEmail()}
              </Text>
              <Text size="sm">{current.email}</Text>
            </div>
            <Group justify="flex-end">
              <Button
                variant="default"
                onClick={() => {
                  setDisplayName(current.displayName ?? '');
                  setEditing(true);
                }}
              >
                {m.commonEdit()}
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
      <Paper withBorder p="lg" maw={480} w="100%" component="section" aria-labelledby="profile-second-factor">
        <Stack gap="sm">
          <Title order={3} size="h4" id="profile-second-factor">
            {m.secondFactorTitle()}
          </Title>
          <Text size="sm">{m.profileSecondFactorText()}</Text>
          <Group justify="flex-end">
            <Button
              component={Link}
              to="/second-factor"
              variant="light"
              leftSection={<IconShieldLock size={16} aria-hidden />}
            >
              {m.profileManageSecondFactor()}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Page>
  );
}
