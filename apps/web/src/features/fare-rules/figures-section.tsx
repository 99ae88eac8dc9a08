import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, Switch, Table, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { State } from '@bmet/shared/constants';
import {
  COMPLIANCE_FIGURE_FIELDS,
  type ComplianceFigureField,
  type ComplianceFigures,
} from '@bmet/shared/driver-check-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { StateComplianceFigures } from '@bmet/shared/schemas/compliance-figures';
import { DateField } from '../../components/date-field';
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

/** A state's figures as a table of two columns: what, and how much. */
function FiguresTable({ figures, label }: { figures: ComplianceFigures; label: string }) {
  return (
    <Table.ScrollContainer minWidth={300}>
      <Table aria-label={label} striped>
        <Table.Tbody>
          {COMPLIANCE_FIGURE_FIELDS.map((field) => (
            <Table.Tr key={field}>
              <Table.Th scope="row" fw={500}>
                {LABELS[field]()}
              </Table.Th>
              <Table.Td>{shown(field, figures[field])}</Table.Td>
            </Table.Tr>
          ))}
          <Table.Tr>
            <Table.Th scope="row" fw={500}>
              {m.figuresElectricPermitExempt()}
            </Table.Th>
            <Table.Td>{figures.electricPermitExempt ? m.figuresYes() : m.figuresNo()}</Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

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
        <DateField
          label={m.figuresEffectiveFrom()}
          value={effectiveFrom}
          onChange={setEffectiveFrom}
          error={fieldErrors.effectiveFrom?.[0]}
          maw={240}
        />
        {save.error && !(save.error instanceof ApiError && save.error.body.fieldErrors) && (
          <Alert color="red" role="alert">
            {save.error.message}
          </Alert>
        )}
        {done && (
          <Alert color="teal" role="status">
            {done}
          </Alert>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {m.figuresSave({ state: stateLabel(entry.state) })}
          </Button>
        </Group>
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
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {entry.effectiveFrom
          ? m.figuresInEffectSince({ date: formatCalendarDate(entry.effectiveFrom) })
          : m.figuresDefaults()}
      </Text>
      <FiguresTable figures={entry.figures} label={m.figuresInEffectTitle({ state: name })} />
      {entry.scheduled.map((later) => (
        <Stack key={later.effectiveFrom} gap={4}>
          <Text size="sm" fw={500}>
            {m.figuresFrom({ date: formatCalendarDate(later.effectiveFrom) })}
          </Text>
          <FiguresTable
            figures={later.figures}
            label={m.figuresFrom({ date: formatCalendarDate(later.effectiveFrom) })}
          />
        </Stack>
      ))}
      <FiguresForm key={state} entry={entry} />
    </Stack>
  );
}
