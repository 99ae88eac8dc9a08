import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { grievanceStatusLabel } from '@bmet/shared/grievance-labels';
import { GRIEVANCE_STEPS, type GrievanceStatus } from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { Grievance, UpdateGrievanceBody } from '@bmet/shared/schemas/grievance';
import { ApiError } from '../../lib/api-client';

/** What the button of a step says: the step, not the state it leads to ("Resolve", not "Resolved"). */
export function stepLabel(to: GrievanceStatus): string {
  switch (to) {
    case 'in_progress':
      return m.grievanceStepInProgress();
    case 'waiting':
      return m.grievanceStepWaiting();
    case 'resolved':
      return m.grievanceStepResolve();
    case 'closed':
      return m.grievanceStepClose();
    case 'reopened':
      return m.grievanceStepReopen();
    case 'open':
      return grievanceStatusLabel('open');
  }
}

/** The step that finishes the work is the main button; the others are lighter. */
const MAIN_STEP: GrievanceStatus[] = ['resolved', 'reopened'];

/**
 * The buttons of the steps allowed from the grievance's state (GRIEVANCE_STEPS). Each opens a
 * dialog for an optional note; resolving also asks for the resolution the complainant is told.
 */
export function GrievanceSteps({
  grievance,
  saving,
  error,
  onStep,
  onOpen,
}: {
  grievance: Pick<Grievance, 'number' | 'status'>;
  saving: boolean;
  error: Error | null;
  onStep: (body: UpdateGrievanceBody, done: () => void) => void;
  /** A step's dialog opens: the refusal of an earlier one is forgotten. */
  onOpen?: () => void;
}) {
  const [step, setStep] = useState<GrievanceStatus | null>(null);
  const [note, setNote] = useState('');
  const [resolution, setResolution] = useState('');
  const steps = GRIEVANCE_STEPS[grievance.status];
  const fieldErrors = error instanceof ApiError ? (error.body.fieldErrors ?? {}) : {};
  const close = () => {
    setStep(null);
    setNote('');
    setResolution('');
  };
  const confirm = () => {
    if (!step) return;
    onStep(
      {
        status: step,
        note: note.trim() || null,
        ...(step === 'resolved' ? { resolution: resolution.trim() || null } : {}),
      },
      close,
    );
  };

  if (steps.length === 0) return <Text c="dimmed">{m.grievanceStepNone()}</Text>;
  return (
    <>
      <Group gap="sm" data-print="hide">
        {steps.map((to) => (
          <Button
            key={to}
            variant={MAIN_STEP.includes(to) ? 'filled' : 'light'}
            onClick={() => {
              onOpen?.();
              setStep(to);
            }}
          >
            {stepLabel(to)}
          </Button>
        ))}
      </Group>
      <Modal
        opened={step !== null}
        onClose={close}
        title={step ? `${stepLabel(step)} · ${grievance.number}` : ''}
        closeButtonProps={{ 'aria-label': m.grievanceCancel() }}
      >
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            confirm();
          }}
        >
          <Stack>
            {step === 'resolved' && (
              <Textarea
                label={m.grievanceResolution()}
                value={resolution}
                onChange={(event) => setResolution(event.currentTarget.value)}
                autosize
                minRows={3}
                withAsterisk
                data-autofocus
                error={fieldErrors.resolution?.[0]}
              />
            )}
            <Textarea
              label={m.grievanceNote()}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              autosize
              minRows={2}
              data-autofocus={step !== 'resolved' || undefined}
              error={fieldErrors.note?.[0]}
            />
            {error && !(error instanceof ApiError && error.body.fieldErrors) && (
              <Text size="sm" c="red" role="alert">
                {error.message}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {m.grievanceCancel()}
              </Button>
              <Button type="submit" loading={saving}>
                {m.grievanceConfirmStep()}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
