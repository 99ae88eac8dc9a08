import { Button, Group, NativeSelect, Stack, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import { stateLabel } from '../lib/format';
import { m } from '@bmet/shared/paraglide/messages';

/** The account popup's edit form: name and state, then the caller's further fields, Cancel and Save. */
export function AccountEditForm({
  name,
  onNameChange,
  state,
  onStateChange,
  stateDisabled,
  stateDescription,
  saving,
  onSave,
  onCancel,
  children,
}: {
  name: string;
  onNameChange: (name: string) => void;
  state: State | null;
  onStateChange: (state: State) => void;
  stateDisabled?: boolean;
  stateDescription?: string;
  saving: boolean;
  onSave: () => void;
  onCancel: () => void;
  children?: ReactNode;
}) {
  return (
    <Stack gap="sm">
      <TextInput label={m.commonName()} value={name} onChange={(e) => onNameChange(e.currentTarget.value)} />
      <NativeSelect
        label={m.commonState()}
        value={state ?? ''}
        disabled={stateDisabled}
        description={stateDescription}
        onChange={(e) => onStateChange(e.currentTarget.value as State)}
        data={STATES.map((s) => ({ value: s, label: stateLabel(s) }))}
      />
      {children}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {m.commonCancel()}
        </Button>
        <Button loading={saving} onClick={onSave}>
          {m.commonSave()}
        </Button>
      </Group>
    </Stack>
  );
}
