import { NumberInput, SimpleGrid, Stack, Switch } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { State } from '@bmet/shared/constants';
import {
  COMPLIANCE_FIGURE_FIELDS,
  type ComplianceFigureField,
  type ComplianceFigures,
} from '@bmet/shared/driver-check-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { StateComplianceFigures } from '@bmet/shared/schemas/compliance-figures';
import { DatedSettings, SaveFromDay, type SettingRow } from '../../components/dated-settings';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { ApiError } from '../../lib/api-client';
import { formatCalendarDate, formatCount, formatRupees, stateLabel } from '../../lib/format';
import { useComplianceFigures, useSaveComplianceFigures } from './api';
import { todayInIndia } from './fields';

type Field = ComplianceFigureField;

const LABELS: Record<Field, () => string> = {
  inductionHours: m.figuresInductionHours,
  refresherMonths: m.figuresRefresherMonths,
  remedialSharePercent: m.figuresRemedialShare,
  healthCover: m.figuresHealthCover,
  termCover: m.figuresTermCover,
  vehicleMaxAgeYears: m.figuresVehicleMaxAge,
};

const RUPEES: readonly Field[] = ['healthCover', 'termCover'];

const shown = (field: Field, value: number) =>
  RUPEES.includes(field)
    ? formatRupees(value)
    : field === 'remedialSharePercent'
      ? `${formatCount(value)}%`
      : formatCount(value);

const rowsOf = (figures: ComplianceFigures): SettingRow[] => [
  ...COMPLIANCE_FIGURE_FIELDS.map((field) => ({
    key: field,
    name: LABELS[field](),
    value: shown(field, figures[field]),
  })),
  {
    key: 'electricPermitExempt',
    name: m.figuresElectricPermitExempt(),
    value: figures.electricPermitExempt ? m.figuresYes() : m.figuresNo(),
  },
];

function FiguresForm({ entry }: { entry: StateComplianceFigures }) {
  const [effectiveFrom, setEffectiveFrom] = useState(todayInIndia);
  const [values, setValues] = useState<Record<Field, number | string>>(() => ({ ...entry.figures }));
  const [permitExempt, setPermitExempt] = useState(entry.figures.electricPermitExempt);
  const [done, setDone] = useState<string | null>(null);
  const save = useSaveComplianceFigures(entry.state);
  const fieldErrors: Partial<Record<string, string[]>> =
    save.error instanceof ApiError ? (save.error.body.fieldErrors ?? {}) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const figures = {
      ...(Object.fromEntries(
        COMPLIANCE_FIGURE_FIELDS.map((field) => [field, Number(values[field])]),
      ) as Record<Field, number>),
      electricPermitExempt: permitExempt,
    } satisfies ComplianceFigures;
    save.mutate(
      { effectiveFrom, figures },
      {
        onSuccess: () =>
          setDone(
            m.figuresSaved({ state: stateLabel(entry.state), date: formatCalendarDate(effectiveFrom) }),
          ),
      },
    );
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {COMPLIANCE_FIGURE_FIELDS.map((field) => (
            <NumberInput
              key={field}
              label={LABELS[field]()}
              value={values[field]}
              onChange={(value) => setValues((current) => ({ ...current, [field]: value }))}
              min={0}
              thousandSeparator={RUPEES.includes(field) ? ',' : undefined}
              thousandsGroupStyle="lakh"
              error={fieldErrors[`figures.${field}`]?.[0]}
            />
          ))}
        </SimpleGrid>
        <Switch
          label={m.figuresElectricPermitExempt()}
          description={m.figuresElectricPermitExemptHint()}
          checked={permitExempt}
          onChange={(event) => setPermitExempt(event.currentTarget.checked)}
        />
        <SaveFromDay
          dateLabel={m.figuresEffectiveFrom()}
          effectiveFrom={effectiveFrom}
          onEffectiveFrom={setEffectiveFrom}
          error={save.error}
          done={done}
          saveLabel={m.figuresSave({ state: stateLabel(entry.state) })}
          saving={save.isPending}
        />
      </Stack>
    </form>
  );
}

/**
 * A state's figures of the driver checks and vehicles (decision 028): in effect today (or the
 * guidelines' defaults), saved for later days, and the form that changes them from a day on.
 */
export function FiguresSection({ state }: { state: State }) {
  const all = useComplianceFigures();
  const entry = all.data?.find((candidate) => candidate.state === state);
  if (all.isError && !all.data) return <ErrorAlert error={all.error} />;
  if (!entry) return <ListLoader label={m.fareRulesLoading()} />;
  const name = stateLabel(state);
  return (
    <DatedSettings
      effectiveFrom={entry.effectiveFrom}
      sinceText={(date) => m.figuresInEffectSince({ date })}
      defaultsText={m.figuresDefaults()}
      current={entry.figures}
      currentLabel={m.figuresInEffectTitle({ state: name })}
      scheduled={entry.scheduled.map((later) => ({
        effectiveFrom: later.effectiveFrom,
        value: later.figures,
      }))}
      laterLabel={(date) => m.figuresFrom({ date })}
      rowsOf={rowsOf}
    >
      <FiguresForm key={state} entry={entry} />
    </DatedSettings>
  );
}
