import { Alert, Button, Group, Modal, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { CAR_TYPES, STATES, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import type { StateRates } from '@bmet/shared/schemas/car-rate';
import { stateLabel } from '../../lib/format';
import { ApiError } from '../../lib/api-client';
import { useCopyRates } from './api';
import { OVERRIDE_REASON_MIN, OverrideBand } from './override-band';
import { carTypeLabel } from '@bmet/shared/labels';

type Outcome =
  | { ok: true; message: string }
  | { ok: false; message: string }
  | { ok: false; outOfBand: true; message: string; to: State };

/** Copies this state's rate sets onto another state, after a confirmation that names what changes. */
export function CopyRates({ state, rates }: { state: State; rates: StateRates }) {
  const [target, setTarget] = useState<State | ''>('');
  const [confirming, setConfirming] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const copy = useCopyRates();
  const types = CAR_TYPES.filter((type) => rates[type]);
  const typeList = types.map((type) => carTypeLabel(type)).join(', ');

  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  /** Copies onto `to`; with `overrideReason`, rates outside the target's fare band are kept. */
  const copyTo = (to: State, overrideReason?: string) =>
    copy.mutate(
      { from: state, to, overrideReason },
      {
        onSuccess: () => {
          setOutcome({ ok: true, message: m.ratesCopied({ from: stateLabel(state), to: stateLabel(to) }) });
          setTarget('');
          setReason('');
        },
        onError: (error) => {
          const refused = error instanceof ApiError ? error.body.fieldErrors?.overrideReason?.[0] : undefined;
          if (overrideReason !== undefined && refused) return setReasonError(refused);
          if (error instanceof ApiError && error.body.code === 'FARE_OUT_OF_BAND') {
            setReasonError(null);
            return setOutcome({ ok: false, outOfBand: true, message: error.message, to });
          }
          setOutcome({ ok: false, message: error.message });
        },
        onSettled: () => setConfirming(false),
      },
    );
  const run = () => target && copyTo(target);
  const copyAnyway = (to: State) => {
    if (reason.trim().length < OVERRIDE_REASON_MIN) {
      return setReasonError(m.overrideReasonShort({ min: OVERRIDE_REASON_MIN }));
    }
    copyTo(to, reason.trim());
  };

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="copy-rates-title">
      <Stack gap="sm">
        <Title order={4} id="copy-rates-title">
          {m.ratesCopyTitle()}
        </Title>
        {types.length === 0 ? (
          <Text size="sm" c="dimmed">
            {m.ratesCopyNothing({ state: stateLabel(state) })}
          </Text>
        ) : (
          <>
            <Text size="xs" c="dimmed">
              {m.ratesCopyExplanation({ state: stateLabel(state), types: typeList })}
            </Text>
            <Group align="end" gap="sm">
              <NativeSelect
                label={m.ratesCopyTo()}
                value={target}
                onChange={(event) => {
                  setTarget(event.currentTarget.value as State | '');
                  setOutcome(null);
                }}
                data={[
                  { value: '', label: m.selectState(), disabled: true },
                  ...STATES.filter((other) => other !== state).map((other) => ({
                    value: other,
                    label: stateLabel(other),
                  })),
                ]}
                style={{ flex: '1 1 200px' }}
              />
              <Button variant="default" disabled={!target} onClick={() => setConfirming(true)}>
                {m.ratesCopyButton()}
              </Button>
            </Group>
          </>
        )}
        {outcome && 'outOfBand' in outcome && (
          <OverrideBand
            detail={outcome.message}
            reason={reason}
            error={reasonError}
            onReason={(value) => {
              setReason(value);
              setReasonError(null);
            }}
            onSave={() => copyAnyway(outcome.to)}
            saving={copy.isPending}
            saveLabel={m.ratesCopyAnyway({ state: stateLabel(outcome.to) })}
          />
        )}
        {outcome && !('outOfBand' in outcome) && (
          <Alert
            color={outcome.ok ? 'teal' : 'red'}
            role={outcome.ok ? 'status' : 'alert'}
            withCloseButton
            closeButtonLabel={m.ratesCopyDismiss()}
            onClose={() => setOutcome(null)}
          >
            {outcome.message}
          </Alert>
        )}
      </Stack>
      <Modal
        opened={confirming && Boolean(target)}
        onClose={() => setConfirming(false)}
        title={m.ratesCopyButton()}
        closeButtonProps={{ 'aria-label': m.close() }}
      >
        {target && (
          <Stack gap="md">
            <Text size="sm">
              {m.ratesCopyConfirm({ from: stateLabel(state), types: typeList, to: stateLabel(target) })}
            </Text>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={() => setConfirming(false)}>
                {m.ratesCopyCancel()}
              </Button>
              <Button loading={copy.isPending} onClick={run}>
                {m.ratesCopyToState({ state: stateLabel(target) })}
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Paper>
  );
}
