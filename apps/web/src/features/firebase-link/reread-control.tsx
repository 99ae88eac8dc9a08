import { Alert, Button, Group, Loader, NativeSelect, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { FIREBASE_LINK_KINDS, type FirebaseLinkKind } from '@bmet/shared/firebase-link-kinds';
import type { FirebaseLinkStatus } from '@bmet/shared/schemas/firebase-link';
import { showNotification } from '../../lib/notify';
import { useRereadKind } from './api';
import { REREAD_LABELS } from './labels';
import { Section } from '../../components/section';

/**
 * Asks the following server to read one kind of record again from Firebase. What it is doing with
 * the requests (asked, re-reading) comes from the status, which the screen loads every 5 s.
 */
export function RereadSection({ status }: { status: FirebaseLinkStatus }) {
  const [kind, setKind] = useState<FirebaseLinkKind | ''>('');
  const [error, setError] = useState<string | null>(null);
  const reread = useRereadKind();
  const asked = status.rereadsAsked.filter((asked) => asked !== status.rereading);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!kind) return;
    setError(null);
    reread.mutate(kind, {
      onSuccess: () =>
        showNotification({
          color: 'teal',
          message: m.firebaseLinkRereadSent({ kind: REREAD_LABELS[kind]() }),
        }),
      onError: (failure) => setError(failure.message),
    });
  };

  return (
    <Section title={m.firebaseLinkReread()}>
      <Text size="sm" c="dimmed">
        {m.firebaseLinkRereadText()}
      </Text>
      <form onSubmit={submit}>
        <Group align="end" gap="sm">
          <NativeSelect
            label={m.firebaseLinkRereadKind()}
            value={kind}
            onChange={(event) => {
              setKind(event.currentTarget.value as FirebaseLinkKind | '');
              setError(null);
            }}
            data={[
              { value: '', label: m.firebaseLinkRereadChoose(), disabled: true },
              ...FIREBASE_LINK_KINDS.map((value) => ({ value, label: REREAD_LABELS[value]() })),
            ]}
            style={{ flex: '1 1 200px' }}
          />
          <Button type="submit" disabled={!kind} loading={reread.isPending}>
            {m.firebaseLinkRereadButton()}
          </Button>
        </Group>
      </form>
      {error && (
        <Alert
          color="red"
          role="alert"
          withCloseButton
          closeButtonLabel={m.close()}
          onClose={() => setError(null)}
        >
          {error}
        </Alert>
      )}
      {/* Announced as it changes: a request taken up, then finished. */}
      <Stack gap={4} aria-live="polite" data-testid="firebase-link-rereads">
        {status.rereading && (
          <Group gap="xs" wrap="nowrap">
            <Loader size="xs" aria-hidden />
            <Text size="sm">{m.firebaseLinkRereading({ kind: REREAD_LABELS[status.rereading]() })}</Text>
          </Group>
        )}
        {asked.length > 0 && (
          <Text size="sm">
            {m.firebaseLinkRereadAsked({ kinds: asked.map((value) => REREAD_LABELS[value]()).join(', ') })}
          </Text>
        )}
      </Stack>
    </Section>
  );
}
