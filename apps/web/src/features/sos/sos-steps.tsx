import { Button, Group, NativeSelect, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import { sosEscalationLabel, sosOutcomeLabel } from '@bmet/shared/sos-labels';
import { SOS_ESCALATIONS, SOS_OUTCOMES, type SosEscalation, type SosOutcome } from '@bmet/shared/sos-rules';
import { useSosStep } from './api';
import { allowedSteps } from './sos-logic';

/** The steps allowed on an alert now: Acknowledge; Escalate (to whom, a note); Resolve (outcome, a note). */
export function SosSteps({ alert }: { alert: SosAlert }) {
  const step = useSosStep();
  const steps = allowedSteps(alert);
  const [form, setForm] = useState<'escalate' | 'resolve' | null>(null);
  const [to, setTo] = useState<SosEscalation>('police');
  const [outcome, setOutcome] = useState<SosOutcome>('help_given');
  const [note, setNote] = useState('');
  if (steps.length === 0) return null;
  const run = (body: Parameters<typeof step.mutate>[0]['step']) =>
    step.mutate(
      { id: alert.id, step: body },
      {
        onSuccess: () => {
          setForm(null);
          setNote('');
        },
      },
    );
  const idPrefix = `sos-${alert.id}`;
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {steps.includes('acknowledge') && (
          <Button color="red" loading={step.isPending} onClick={() => run({ action: 'acknowledge' })}>
            {m.sosBannerAcknowledge()}
          </Button>
        )}
        {steps.includes('escalate') && (
          <Button
            variant={form === 'escalate' ? 'filled' : 'default'}
            aria-expanded={form === 'escalate'}
            onClick={() => setForm(form === 'escalate' ? null : 'escalate')}
          >
            {m.sosEscalateButton()}
          </Button>
        )}
        {steps.includes('resolve') && (
          <Button
            variant={form === 'resolve' ? 'filled' : 'default'}
            aria-expanded={form === 'resolve'}
            onClick={() => setForm(form === 'resolve' ? null : 'resolve')}
          >
            {m.sosResolveButton()}
          </Button>
        )}
      </Group>
      {form && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            run(
              form === 'escalate' ? { action: 'escalate', to, note } : { action: 'resolve', outcome, note },
            );
          }}
        >
          <Stack gap="xs">
            {form === 'escalate' ? (
              <NativeSelect
                id={`${idPrefix}-to`}
                label={m.sosEscalateTo()}
                value={to}
                onChange={(event) => setTo(event.currentTarget.value as SosEscalation)}
                data={SOS_ESCALATIONS.map((value) => ({ value, label: sosEscalationLabel(value) }))}
              />
            ) : (
              <NativeSelect
                id={`${idPrefix}-outcome`}
                label={m.sosOutcomeField()}
                value={outcome}
                onChange={(event) => setOutcome(event.currentTarget.value as SosOutcome)}
                data={SOS_OUTCOMES.map((value) => ({ value, label: sosOutcomeLabel(value) }))}
              />
            )}
            <Textarea
              id={`${idPrefix}-note`}
              label={m.sosNoteField()}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              autosize
              minRows={2}
              maxLength={2000}
            />
            <Group gap="xs">
              <Button type="submit" loading={step.isPending}>
                {form === 'escalate' ? m.sosEscalateButton() : m.sosResolveButton()}
              </Button>
              <Button variant="default" onClick={() => setForm(null)}>
                {m.sosCancel()}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {step.error && (
        <Text c="red" size="sm" role="alert">
          {m.sosStepFailed({ error: step.error.message })}
        </Text>
      )}
    </Stack>
  );
}
