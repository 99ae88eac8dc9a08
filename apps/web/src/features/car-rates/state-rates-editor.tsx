import { OVERRIDE_REASON_MIN, OverrideBand } from './override-band';
import {
  Alert,
  Button,
  Grid,
  Group,
  Menu,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { IconCheck, IconPlus, IconRefresh } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { CAR_TYPES, RATE_FIELDS, type CarType, type RateField, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import {
  RATE_FIELD_MAX,
  rateValuesInputSchema,
  type RateSet,
  type RateValues,
  type RateValuesInput,
  type StateRates,
  type UpdateRatesBody,
} from '@bmet/shared/schemas/car-rate';
import { ApiError } from '../../lib/api-client';
import { formatCount, stateLabel } from '../../lib/format';
import { useRefreshHistory, useUpdateRates } from './api';
import { CopyRates } from './copy-rates';
import { FarePreview, type DraftValues } from './fare-preview';
import { rateFieldLabel } from '../../lib/rate-fields';
import { RateChangeDialog } from './rate-change-dialog';
import { changedRateFields } from './rate-changes';
import { RateHistory } from './rate-history';
import { carTypeLabel } from '@bmet/shared/labels';

type FormValues = Record<RateField, number | string>;
type FieldErrors = Partial<Record<RateField, string>>;

type Message =
  | { kind: 'success' | 'info'; text: string }
  | { kind: 'select-type' }
  | { kind: 'error'; detail: string }
  | { kind: 'conflict'; detail: string }
  // Rates outside the state's fare band: an admin may save them again with a reason.
  | { kind: 'out-of-band'; detail: string; type: CarType; body: UpdateRatesBody };

/** The reason a save outside the fare band is asked for, as it is typed. */
type Override = {
  reason: string;
  error: string | null;
  onReason: (reason: string) => void;
  onSave: () => void;
  saving: boolean;
};

/** A save waiting for the admin's confirmation, with the stored values it replaces. */
type PendingSave = {
  type: CarType;
  body: UpdateRatesBody;
  before: RateValues | null;
  after: RateValuesInput;
};

/** The hint under a field of the grid, in the current language. */
const descriptionOf = (field: RateField): string =>
  field === 'rushHour'
    ? m.ratesFieldMultiplierRange({ max: RATE_FIELD_MAX[field] })
    : m.ratesFieldRupeesRange({ max: formatCount(RATE_FIELD_MAX[field]) });

/** The grid's values for a stored set: blank where the set has none. */
const formOf = (set: RateSet | undefined): FormValues =>
  Object.fromEntries(RATE_FIELDS.map((field) => [field, set?.[field] ?? ''])) as FormValues;

/** The grid's inputs as numbers, blank as null (and text that is no number as NaN, refused below). */
const draftOf = (values: FormValues): DraftValues =>
  Object.fromEntries(
    RATE_FIELDS.map((field) => {
      const value = values[field];
      return [field, typeof value === 'number' ? value : value.trim() === '' ? null : Number(value)];
    }),
  ) as DraftValues;

/** A stored set's values, without its version. */
const valuesOf = ({ version: _, ...values }: RateSet): RateValues => values;

/** A car type offered by the spec's select: the state has it, with a basePrice. */
const isPriced = (rates: StateRates, type: CarType) =>
  rates[type] !== undefined && rates[type].basePrice !== null;

function SaveMessage({
  message,
  onReload,
  reloading,
  override,
}: {
  message: Message;
  onReload: () => void;
  reloading: boolean;
  override: Override;
}) {
  switch (message.kind) {
    case 'success':
      return (
        <Alert color="teal" variant="light" role="status" icon={<IconCheck size={18} />}>
          {message.text}
        </Alert>
      );
    case 'info':
      return (
        <Alert color="blue" variant="light" role="status">
          {message.text}
        </Alert>
      );
    case 'select-type':
      return (
        <Alert color="orange" variant="light" role="alert">
          {m.pleaseSelectCarType()}
        </Alert>
      );
    case 'error':
      return (
        <Alert color="red" variant="light" role="alert" title={m.errorUpdatingRates()}>
          {message.detail}
        </Alert>
      );
    case 'conflict':
      return (
        <Alert color="red" variant="light" role="alert" title={m.errorUpdatingRates()}>
          <Stack gap="xs" align="start">
            <Text size="sm">{message.detail}</Text>
            <Button
              size="xs"
              variant="white"
              color="red"
              leftSection={<IconRefresh size={14} />}
              loading={reloading}
              onClick={onReload}
            >
              {m.reloadCurrentRates()}
            </Button>
          </Stack>
        </Alert>
      );
    case 'out-of-band':
      return (
        <OverrideBand
          detail={message.detail}
          reason={override.reason}
          error={override.error}
          onReason={override.onReason}
          onSave={override.onSave}
          saving={override.saving}
        />
      );
  }
}

/**
 * The body of step 2 of the rates screen: one state's car types, the field grid of the chosen type
 * with a fare preview, copying to another state, and the history of changes.
 */
export function StateRatesEditor({
  state,
  rates,
  reload,
}: {
  state: State;
  rates: StateRates;
  /** Fetches the rates again and answers this state's. */
  reload: () => Promise<StateRates>;
}) {
  const [type, setType] = useState<CarType | null>(null);
  // A car type being added: offered in the select until it is saved or another type is chosen.
  const [adding, setAdding] = useState<CarType | null>(null);
  const [values, setValues] = useState<FormValues>(() => formOf(undefined));
  // The stored set the grid's values were read from: a save is based on its version (not on later
  // reads) and the confirmation compares with its values.
  const [base, setBase] = useState<RateSet | undefined>(undefined);
  const [pending, setPending] = useState<PendingSave | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message | null>(null);
  const [reloading, setReloading] = useState(false);
  const [overrideReason, setOverrideReason] = useState('');
  const [overrideError, setOverrideError] = useState<string | null>(null);
  const update = useUpdateRates(state);
  const refreshHistory = useRefreshHistory(state);

  const offered = CAR_TYPES.filter((t) => isPriced(rates, t) || t === adding);
  const addable = CAR_TYPES.filter((t) => !isPriced(rates, t) && t !== adding);
  const label = type ? carTypeLabel(type) : null;
  const draft = draftOf(values);

  const fill = (next: CarType | null, set: RateSet | undefined) => {
    setType(next);
    setValues(formOf(set));
    setBase(set);
    setFieldErrors({});
  };

  const choose = (next: CarType | null) => {
    setAdding(null);
    setMessage(null);
    fill(next, next ? rates[next] : undefined);
  };

  const add = (next: CarType) => {
    setAdding(next);
    setMessage(null);
    fill(next, rates[next]);
  };

  const reloadCurrent = async () => {
    setReloading(true);
    try {
      const fresh = await reload();
      void refreshHistory();
      if (type && fresh[type]) setAdding(null);
      if (type) fill(type, fresh[type]);
      setMessage({ kind: 'info', text: m.ratesEditorReloaded() });
    } catch (error) {
      setMessage({
        kind: 'error',
        detail: error instanceof Error ? error.message : m.errorFetchingRates(),
      });
    } finally {
      setReloading(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!type) {
      setMessage({ kind: 'select-type' });
      return;
    }
    const parsed = rateValuesInputSchema.safeParse(draft);
    if (!parsed.success) {
      const errors: FieldErrors = {};
      for (const issue of parsed.error.issues) errors[issue.path[0] as RateField] ??= issue.message;
      setFieldErrors(errors);
      const [first] = Object.entries(errors);
      setMessage({
        kind: 'error',
        detail:
          Object.keys(errors).length === 1 && first
            ? m.ratesFieldError({ field: rateFieldLabel(first[0]), message: first[1] })
            : m.validationFailed(),
      });
      return;
    }
    setFieldErrors({});
    const before = base ? valuesOf(base) : null;
    if (before && changedRateFields(before, parsed.data).length === 0) {
      setMessage({ kind: 'info', text: m.ratesNothingChanged({ type: carTypeLabel(type) }) });
      return;
    }
    setMessage(null);
    // Nothing is sent before the admin has seen what changes and confirmed it.
    setPending({
      type,
      body: { [type]: { ...parsed.data, ...(base === undefined ? {} : { version: base.version }) } },
      before,
      after: parsed.data,
    });
  };

  /** Saves a car type's set; `overrideReason` keeps rates outside the fare band. */
  const save = (savedType: CarType, body: UpdateRatesBody, overrideReason?: string) => {
    update.mutate(
      { body, overrideReason },
      {
        onSettled: () => setPending(null),
        onSuccess: (stored) => {
          setAdding(null);
          setOverrideReason('');
          fill(savedType, stored[savedType]);
          setMessage({ kind: 'success', text: m.ratesUpdated({ type: carTypeLabel(savedType) }) });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            // The history shows who saved in between.
            void refreshHistory();
            setMessage({ kind: 'conflict', detail: error.message });
            return;
          }
          const errors: FieldErrors = {};
          const reasonError =
            error instanceof ApiError ? error.body.fieldErrors?.overrideReason?.[0] : undefined;
          if (error instanceof ApiError) {
            for (const [key, messages] of Object.entries(error.body.fieldErrors ?? {})) {
              const field = key.replace(`${savedType}.`, '') as RateField;
              if (RATE_FIELDS.includes(field)) errors[field] = messages[0];
            }
          }
          setFieldErrors(errors);
          if (overrideReason !== undefined && reasonError) {
            // The reason was refused: the offer to save anyway stays, the reason marked.
            setOverrideError(reasonError);
            return;
          }
          if (error instanceof ApiError && error.body.code === 'FARE_OUT_OF_BAND') {
            setOverrideError(null);
            setMessage({ kind: 'out-of-band', detail: error.message, type: savedType, body });
            return;
          }
          setMessage({ kind: 'error', detail: error.message });
        },
      },
    );
  };

  const saveAnyway = () => {
    if (message?.kind !== 'out-of-band') return;
    const reason = overrideReason.trim();
    if (reason.length < OVERRIDE_REASON_MIN) {
      setOverrideError(m.overrideReasonShort({ min: OVERRIDE_REASON_MIN }));
      return;
    }
    setOverrideError(null);
    save(message.type, message.body, reason);
  };

  return (
    <Stack gap="md">
      <Grid gap="md" align="start">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder p="md" radius="md" component="form" onSubmit={submit} noValidate>
            <Stack gap="md">
              <Group align="end" gap="sm">
                <NativeSelect
                  label={m.ratesEditorCarType()}
                  value={type ?? ''}
                  onChange={(event) => choose((event.currentTarget.value as CarType) || null)}
                  data={[
                    { value: '', label: m.selectCarType(), disabled: true },
                    ...offered.map((t) => ({
                      value: t,
                      label: t === adding ? m.ratesEditorNewType({ type: carTypeLabel(t) }) : carTypeLabel(t),
                    })),
                  ]}
                  style={{ flex: '1 1 220px' }}
                />
                {addable.length > 0 && (
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <Button variant="default" leftSection={<IconPlus size={16} />}>
                        {m.ratesEditorAddCarType()}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {addable.map((t) => (
                        <Menu.Item key={t} onClick={() => add(t)}>
                          {carTypeLabel(t)}
                        </Menu.Item>
                      ))}
                    </Menu.Dropdown>
                  </Menu>
                )}
              </Group>
              {offered.length === 0 && (
                <Text size="sm" c="dimmed">
                  {m.ratesEditorNoCarTypes({ state: stateLabel(state) })}
                </Text>
              )}
              {type && adding === type && (
                <Text size="sm" c="dimmed">
                  {m.ratesEditorIsNewIn({ type: carTypeLabel(type), state: stateLabel(state) })}
                </Text>
              )}
              {type && (
                <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
                  {RATE_FIELDS.map((field) => (
                    <NumberInput
                      key={field}
                      label={rateFieldLabel(field)}
                      description={descriptionOf(field)}
                      value={values[field]}
                      onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
                      error={fieldErrors[field]}
                      min={0}
                      max={RATE_FIELD_MAX[field]}
                      clampBehavior="none"
                      // A minus typed stays, and is refused beside the field: dropping it saved
                      // "-5" as 5 without a word.
                      inputMode="decimal"
                    />
                  ))}
                </SimpleGrid>
              )}
              <Group>
                <Button type="submit" loading={update.isPending}>
                  {label ? m.updateTypeRates({ type: label }) : m.ratesEditorUpdateButton()}
                </Button>
              </Group>
              {message && (
                <SaveMessage
                  message={message}
                  onReload={() => void reloadCurrent()}
                  reloading={reloading}
                  override={{
                    reason: overrideReason,
                    error: overrideError,
                    onReason: (reason) => {
                      setOverrideReason(reason);
                      setOverrideError(null);
                    },
                    onSave: saveAnyway,
                    saving: update.isPending,
                  }}
                />
              )}
            </Stack>
          </Paper>
        </Grid.Col>
        {type && (
          <Grid.Col span={{ base: 12, md: 5 }}>
            <FarePreview values={draft} />
          </Grid.Col>
        )}
      </Grid>

      <Grid gap="md" align="start">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <CopyRates state={state} rates={rates} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <RateHistory
            state={state}
            rates={rates}
            onRestored={(restored, stored) => {
              // The grid shows the current values again, or its next save would be refused as stale.
              if (restored !== type) return;
              setAdding(null);
              setMessage(null);
              fill(restored, stored[restored]);
            }}
          />
        </Grid.Col>
      </Grid>
      {pending && (
        <RateChangeDialog
          opened
          title={m.ratesConfirmTitle()}
          intro={m.ratesConfirmIntro({ type: carTypeLabel(pending.type), state: stateLabel(state) })}
          before={pending.before}
          after={pending.after}
          confirmLabel={m.ratesConfirmSave()}
          onConfirm={() => save(pending.type, pending.body)}
          onCancel={() => setPending(null)}
          confirming={update.isPending}
        />
      )}
    </Stack>
  );
}
