import { Alert, Anchor, Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { ApiError } from '../lib/api-client';
import { hideNotification, showNotification } from '../lib/notify';

/** What every account's sign-up form asks first. */
export type AccountFormValues = { name: string; email: string; password: string };

/** A message beside each field at fault, by the field's name (as the API names it). */
export type AccountFormErrors = Partial<Record<string, string>>;

/** The account just created: named in the link to it under the form. */
export type CreatedAccount = { name: string; href: string };

/** The id of a create form's problem notification: closed once the problem is put right. */
const PROBLEM = 'account-form-problem';

/**
 * A create form's problems and outcome: each field at fault says so beside it as well as in the
 * spec's notification, which closes once every such field has been put right; after "New user
 * has been created" the form offers a link to the new account.
 */
export function useAccountFormState() {
  const [errors, setErrors] = useState<AccountFormErrors>({});
  const [created, setCreated] = useState<CreatedAccount | null>(null);
  const problem = (message: string, fieldErrors: AccountFormErrors) => {
    setErrors(fieldErrors);
    setCreated(null);
    hideNotification(PROBLEM);
    showNotification({ id: PROBLEM, color: 'red', message });
  };
  return {
    errors,
    created,
    /** Required fields left empty: the spec's notification, and "required" beside each. */
    refuseMissing: (fields: readonly string[]) =>
      problem(m.fillAllFields(), Object.fromEntries(fields.map((field) => [field, m.fieldRequired()]))),
    /** The server refused: its message, and its words for each field it names. */
    failed: (error: Error) => {
      const fieldErrors = error instanceof ApiError ? (error.body.fieldErrors ?? {}) : {};
      problem(
        error.message,
        Object.fromEntries(Object.entries(fieldErrors).map(([field, messages]) => [field, messages[0]])),
      );
    },
    succeeded: (account: CreatedAccount) => {
      setErrors({});
      hideNotification(PROBLEM);
      showNotification({ color: 'teal', message: m.userCreated() });
      setCreated(account);
    },
    /** A field was changed: its message goes, and the notification with the last of them. */
    changed: (field: string) => {
      if (errors[field] === undefined) return;
      const { [field]: _fixed, ...rest } = errors;
      setErrors(rest);
      if (Object.keys(rest).length === 0) hideNotification(PROBLEM);
    },
  };
}

/**
 * The spec's sign-up form of a city dealer or franchise: name, email and password, then the
 * caller's state fields and buttons. Browsers' own checks are off: the spec's messages say what is
 * missing, in a notification and beside each field.
 */
export function AccountForm({
  values,
  errors,
  created,
  onChange,
  onSubmit,
  children,
}: {
  values: AccountFormValues;
  errors: AccountFormErrors;
  created: CreatedAccount | null;
  onChange: (field: keyof AccountFormValues, value: string) => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" maw={480} w="100%">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          {created && (
            <Alert color="teal" role="status" p="xs">
              {m.userCreated()}{' '}
              <Anchor component={Link} to={created.href} fw={600}>
                {m.accountOpenCreated({ name: created.name })}
              </Anchor>
            </Alert>
          )}
          <TextInput
            label={m.commonName()}
            value={values.name}
            error={errors.name}
            onChange={(e) => onChange('name', e.currentTarget.value)}
            autoComplete="off"
          />
          <TextInput
            label={m.commonEmail()}
            type="email"
            value={values.email}
            error={errors.email}
            onChange={(e) => onChange('email', e.currentTarget.value)}
            autoComplete="off"
          />
          <PasswordInput
            label={m.commonPassword()}
            description={m.commonPasswordRule({ min: PASSWORD_MIN_LENGTH })}
            value={values.password}
            error={errors.password}
            onChange={(e) => onChange('password', e.currentTarget.value)}
            autoComplete="new-password"
          />
          {children}
        </Stack>
      </form>
    </Paper>
  );
}
