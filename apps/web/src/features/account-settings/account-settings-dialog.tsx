import {
  Alert,
  Button,
  Divider,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useId, useRef, useState, type FormEvent } from 'react';
import { ACCOUNT_NAME_MAX_LENGTH } from '@bmet/shared/account-fields';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { ApiError } from '../../lib/api-client';
import { useCurrentUser } from '../../lib/current-user';
import { useChangeOwnName, useChangeOwnPassword } from './api';

type Props = { opened: boolean; onClose: () => void };

// Mantine's red for a field's error reads at 3.3:1 on white and 3.4:1 on the dark dialog; these
// reds read at 5.5:1 and 5.6:1 (WCAG AA asks 4.5:1).
const READABLE_ERRORS = {
  '--mantine-color-error': 'light-dark(var(--mantine-color-red-9), var(--mantine-color-red-5))',
};

/**
 * Every signed-in user's own display name and password, from the account menu (decision 033).
 * The admins' profile and update-password screens stay as the spec has them.
 */
export function AccountSettingsDialog({ opened, onClose }: Props) {
  const user = useCurrentUser();
  return (
    <Modal opened={opened} onClose={onClose} title={m.accountSettingsTitle()} style={READABLE_ERRORS}>
      <Stack gap="lg">
        {user.isError && <ErrorAlert error={user.error} />}
        {user.data ? (
          <NameForm initial={user.data.displayName ?? ''} />
        ) : (
          !user.isError && <Text role="status">{m.loading()}</Text>
        )}
        <Divider />
        <PasswordForm email={user.data?.email ?? ''} />
      </Stack>
    </Modal>
  );
}

/** The first message of a failed call for each field it names. */
function fieldErrorsOf(error: unknown): Record<string, string | undefined> {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(
    Object.entries(error.body.fieldErrors ?? {}).map(([field, messages]) => [field, messages[0]]),
  );
}

function NameForm({ initial }: { initial: string }) {
  const headingId = useId();
  const save = useChangeOwnName();
  const [displayName, setDisplayName] = useState(initial);
  const input = useRef<HTMLInputElement>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // An empty name is refused by the server, in the words of the profile screen.
    save.mutate({ displayName }, { onError: () => input.current?.focus() });
  };

  const fieldError = fieldErrorsOf(save.error).displayName;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          {m.accountSettingsNameHeading()}
        </Title>
        <TextInput
          ref={input}
          label={m.accountSettingsDisplayName()}
          value={displayName}
          maxLength={ACCOUNT_NAME_MAX_LENGTH}
          autoComplete="name"
          error={fieldError}
          onChange={(e) => setDisplayName(e.currentTarget.value)}
          data-autofocus
        />
        {save.isError && !fieldError && <ErrorAlert error={save.error} />}
        {save.isSuccess && (
          <Alert color="teal" role="status">
            {m.accountSettingsNameSaved()}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {m.accountSettingsSave()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type PasswordField = 'currentPassword' | 'newPassword' | 'confirm';
const PASSWORD_FIELDS: PasswordField[] = ['currentPassword', 'newPassword', 'confirm'];

/** What the browser can tell before asking the server, which checks the password rules. */
function checkPasswords(values: Record<PasswordField, string>): Partial<Record<PasswordField, string>> {
  const problems: Partial<Record<PasswordField, string>> = {};
  if (!values.currentPassword) problems.currentPassword = m.enterCurrentPassword();
  if (values.confirm !== values.newPassword) problems.confirm = m.passwordsDiffer();
  return problems;
}

function PasswordForm({ email }: { email: string }) {
  const headingId = useId();
  const change = useChangeOwnPassword();
  const empty = { currentPassword: '', newPassword: '', confirm: '' };
  const [values, setValues] = useState<Record<PasswordField, string>>(empty);
  const [problems, setProblems] = useState<Partial<Record<PasswordField, string>>>({});
  const form = useRef<HTMLFormElement>(null);
  const focusFirst = (found: Partial<Record<PasswordField, string>>) => {
    const first = PASSWORD_FIELDS.find((field) => found[field]);
    if (first) form.current?.querySelector<HTMLInputElement>(`input[name="${first}"]`)?.focus();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.reset();
    const found = checkPasswords(values);
    setProblems(found);
    if (Object.keys(found).length > 0) {
      focusFirst(found);
      return;
    }
    change.mutate(
      { currentPassword: values.currentPassword, newPassword: values.newPassword },
      {
        onSuccess: () => setValues(empty),
        onError: (error) => {
          const fields = fieldErrorsOf(error);
          // Too many wrong passwords: the lock is about the current password.
          if (error instanceof ApiError && error.status === 429) fields.currentPassword = error.message;
          const named = Object.fromEntries(PASSWORD_FIELDS.map((field) => [field, fields[field]]));
          setProblems(named);
          focusFirst(named);
        },
      },
    );
  };

  const set = (field: PasswordField) => (event: { currentTarget: HTMLInputElement }) => {
    const value = event.currentTarget.value;
    setValues((before) => ({ ...before, [field]: value }));
  };
  const named = PASSWORD_FIELDS.some((field) => problems[field]);
  return (
    <form ref={form} onSubmit={submit} noValidate aria-labelledby={headingId}>
      <Stack gap="sm">
        <Title order={3} size="h5" id={headingId}>
          {m.commonPassword()}
        </Title>
        {/* For password managers: the account whose password this is. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          name="currentPassword"
          label={m.accountSettingsCurrentPassword()}
          autoComplete="current-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={values.currentPassword}
          error={problems.currentPassword}
          onChange={set('currentPassword')}
        />
        <PasswordInput
          name="newPassword"
          label={m.accountSettingsNewPassword()}
          description={m.accountSettingsPasswordRule({ min: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={values.newPassword}
          error={problems.newPassword}
          onChange={set('newPassword')}
        />
        <PasswordInput
          name="confirm"
          label={m.accountSettingsConfirmPassword()}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          value={values.confirm}
          error={problems.confirm}
          onChange={set('confirm')}
        />
        {change.isError && !named && <ErrorAlert error={change.error} />}
        {change.isSuccess && (
          <Alert color="teal" role="status">
            {change.data.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {m.accountSettingsChangePassword()}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
