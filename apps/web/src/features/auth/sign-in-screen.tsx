import {
  Anchor,
  Button,
  Center,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import type { Role } from '@bmet/shared/constants';
import { ROLES } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { rememberAccountLanguage } from '../../lib/account-language';
import { useLanguage } from '../../lib/language';
import { useSession } from '../../lib/session-context';
import { useSignIn } from './api';
import { roleLabel } from '@bmet/shared/role-label';

/** The sign-in screen: one tab per role; the chosen tab must match the account's role. */
export function SignInScreen() {
  const { session, startSession } = useSession();
  const { language, changeLanguage } = useLanguage();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const [role, setRole] = useState<Role>('admin');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  if (session) return <Navigate to="/welcome" replace />;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate(
      { email, password, role },
      {
        onSuccess: (data) => {
          startSession({ idToken: data.idToken, expirationTime: data.expirationTime, role: data.role });
          // The account's language wins; an account that never chose one keeps the one in use here.
          if (!data.language) rememberAccountLanguage(language);
          else if (data.language !== language) changeLanguage(data.language);
          navigate('/welcome');
        },
      },
    );
  };

  return (
    <Center mih="calc(100dvh - 100px)">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <Tabs
          value={role}
          onChange={(value) => {
            setRole((value as Role) ?? 'admin');
            signIn.reset();
          }}
        >
          <Tabs.List grow mb="md">
            {ROLES.map((r) => (
              <Tabs.Tab key={r} value={r}>
                {roleLabel(r)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <Title order={2} size="h3">
              {m.signInHeading({ role: roleLabel(role) })}
            </Title>
            {signIn.error && (
              <Group gap="xs" wrap="nowrap" align="flex-start" c="red.8" role="alert">
                <IconAlertCircle size={18} aria-hidden style={{ flex: 'none', marginTop: 2 }} />
                <Text size="sm">{signIn.error.message}</Text>
              </Group>
            )}
            <TextInput
              label={m.commonEmail()}
              type="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              required
            />
            <PasswordInput
              label={m.commonPassword()}
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              required
            />
            <Button type="submit" loading={signIn.isPending} fullWidth>
              {m.signInButton()}
            </Button>
            {role === 'admin' && (
              <Anchor component={Link} to="/reset-password-admin" size="sm" ta="center">
                {m.forgotPasswordLink()}
              </Anchor>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}
