import { Alert, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

/** Below this many characters a reason to keep rates outside the band is refused. */
export const OVERRIDE_REASON_MIN = 5;

/**
 * Rates outside the state's fare band, refused: the server's words, and an admin's way to keep
 * them with a reason the audit trail keeps.
 */
export function OverrideBand({
  detail,
  reason,
  error,
  onReason,
  onSave,
  saving,
  saveLabel = m.ratesOverrideSave(),
}: {
  detail: string;
  reason: string;
  error: string | null;
  onReason: (reason: string) => void;
  onSave: () => void;
  saving: boolean;
  saveLabel?: string;
}) {
  return (
    <Alert color="orange" variant="light" role="alert" title={m.errorUpdatingRates()}>
      <Stack gap="xs">
        <Text size="sm">{detail}</Text>
        <Text size="sm">{m.ratesOverrideExplanation()}</Text>
        <TextInput
          label={m.ratesOverrideReason()}
          value={reason}
          onChange={(event) => onReason(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter here saves with the reason, not the form again without it.
            if (event.key === 'Enter') {
              event.preventDefault();
              onSave();
            }
          }}
          error={error}
          maxLength={500}
        />
        <Group>
          <Button size="xs" color="orange" loading={saving} onClick={onSave}>
            {saveLabel}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
