import { Button, Group, Modal, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { CHECK_EXPIRES, CHECK_MEASURE } from '@bmet/shared/driver-check-rules';
import type {
  DriverCheck,
  PutDriverCheckBody,
  driverCheckResponseSchema,
} from '@bmet/shared/schemas/driver-check';
import { ChoiceGroup } from '../../components/choice-group';
import { DateField } from '../../components/date-field';
import { ApiError, apiRequest } from '../../lib/api-client';
import { showNotification } from '../../lib/notify';
import { checkKeys, KIND_LABELS } from './checks-section';

/** Records a check of a driver: the fields its kind needs; the server's refusals under their fields. */
export function CheckDialog({
  driverId,
  check,
  onClose,
}: {
  driverId: string;
  check: DriverCheck;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const measure = CHECK_MEASURE[check.kind];
  const [doneOn, setDoneOn] = useState(check.doneOn ?? '');
  const [reference, setReference] = useState(check.reference ?? '');
  const [result, setResult] = useState<'passed' | 'failed'>(check.result ?? 'passed');
  const [amount, setAmount] = useState<number | string>(check.amount ?? check.hours ?? '');
  const [expiresOn, setExpiresOn] = useState(
    check.expiresOn && CHECK_EXPIRES[check.kind] ? check.expiresOn : '',
  );
  const save = useMutation({
    mutationFn: (body: PutDriverCheckBody) =>
      apiRequest<typeof driverCheckResponseSchema>(
        'PUT',
        `/drivers/driver/${driverId}/checks/${check.kind}`,
        {
          body,
        },
      ),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: checkKeys(driverId) });
      showNotification({ color: 'teal', message: m.checkSaved({ check: KIND_LABELS[check.kind]() }) });
      onClose();
    },
  });
  const fieldErrors: Partial<Record<string, string[]>> =
    save.error instanceof ApiError ? (save.error.body.fieldErrors ?? {}) : {};
  const number = typeof amount === 'number' ? amount : undefined;
  const submit = () =>
    save.mutate({
      doneOn,
      reference,
      ...(measure === 'result' ? { result } : {}),
      ...(measure === 'hours' && number !== undefined ? { hours: number } : {}),
      ...(measure === 'amount' && number !== undefined ? { amount: number } : {}),
      ...(CHECK_EXPIRES[check.kind] && expiresOn ? { expiresOn } : {}),
    });
  return (
    <Modal
      opened
      onClose={onClose}
      title={m.checkDialogTitle({ check: KIND_LABELS[check.kind]() })}
      closeButtonProps={{ 'aria-label': m.close() }}
    >
      <Stack>
        <DateField
          label={m.checkColumnDone()}
          value={doneOn}
          onChange={setDoneOn}
          error={fieldErrors.doneOn?.[0]}
          data-autofocus
        />
        <TextInput
          label={m.checkColumnReference()}
          description={m.checkReferenceHint()}
          value={reference}
          onChange={(event) => setReference(event.currentTarget.value)}
          error={fieldErrors.reference?.[0]}
        />
        {measure === 'result' && (
          <Stack gap={4}>
            <Text size="sm" fw={500} id="check-result-label">
              {m.checkResultLabel()}
            </Text>
            <ChoiceGroup
              labelledBy="check-result-label"
              value={result}
              onChange={setResult}
              data={[
                { value: 'passed', label: m.checkResultPassed() },
                { value: 'failed', label: m.checkResultFailed() },
              ]}
            />
          </Stack>
        )}
        {measure !== 'result' && (
          <NumberInput
            label={measure === 'hours' ? m.checkHoursLabel() : m.checkAmountLabel()}
            description={
              check.kind === 'induction_training'
                ? m.checkInductionHint()
                : check.kind === 'health_insurance'
                  ? m.checkHealthHint()
                  : check.kind === 'term_insurance'
                    ? m.checkTermHint()
                    : undefined
            }
            value={amount}
            onChange={setAmount}
            min={0}
            thousandSeparator={measure === 'amount' ? ',' : undefined}
            thousandsGroupStyle="lakh"
            error={fieldErrors[measure]?.[0]}
          />
        )}
        {CHECK_EXPIRES[check.kind] && (
          <DateField
            label={m.checkColumnExpires()}
            value={expiresOn}
            onChange={setExpiresOn}
            error={fieldErrors.expiresOn?.[0]}
          />
        )}
        {save.error && !(save.error instanceof ApiError && save.error.body.fieldErrors) && (
          <Text size="sm" c="red" role="alert">
            {save.error.message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {m.driversCancel()}
          </Button>
          <Button onClick={submit} loading={save.isPending}>
            {m.checkSave()}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
