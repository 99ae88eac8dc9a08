import { Paper, PasswordInput, Stack, TextInput } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { PASSWORD_MIN_LENGTH } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';

/** What every account's sign-up form asks first. */
export type AccountFormValues = { name: string; email: string; password: string };

/**
 * The spec's sign-up form of a city dealer or franchise: name, email and password, then the
 * caller's state fields and buttons. Browsers' own checks are off: the spec's messages say what is missing.
 */
export function AccountForm({
  values,
  onChange,
  onSubmit,
  children,
}: {
  values: AccountFormValues;
  onChange: (field: keyof AccountFormValues, value: string) => void;
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="lg" maw={480} w="100%">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={m.commonName()}
            value={values.name}
            onChange={(e) => onChange('name', e.currentTarget.value)}
            autoComplete="off"
          />
          <TextInput
            label={m.commonEmail()}
            type="email"
            value={values.email}
            onChange={(e) => onChange('email', e.currentTarget.value)}
            autoComplete="off"
          />
          <PasswordInput
            label={m.commonPassword()}
            description={m.commonPasswordRule({ min: PASSWORD_MIN_LENGTH })}
            value={values.password}
            onChange={(e) => onChange('password', e.currentTarget.value)}
            autoComplete="new-password"
          />
          {children}
        </Stack>
      </form>
    </Paper>
  );
}
