import { Checkbox, NativeSelect, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { STATES, type State } from '@bmet/shared/constants';
import {
  DESK_RULE_FIELDS,
  DESK_RULE_LIMITS,
  indianDayOf,
  type DeskRules,
} from '@bmet/shared/grievance-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { StateDeskRules } from '@bmet/shared/schemas/desk-rules';
import { DatedSettings, SaveFromDay, type SettingRow } from '../../components/dated-settings';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { Section } from '../../components/section';
import { ApiError } from '../../lib/api-client';
import { formatCalendarDate, formatCount, stateLabel } from '../../lib/format';
import { useDeskRules, useSaveDeskRules } from './api';

type Field = keyof DeskRules;
type Share = 'complaintPercent' | 'lowRatingPercent';

const LABELS: Record<Field, () => string> = {
  workingDays: m.deskRulesWorkingDays,
  complaintPercent: m.deskRulesComplaints,
  lowRatingPercent: m.deskRulesLowRatings,
  sosReraiseSeconds: m.deskRulesReraise,
};

const SWITCHES: Record<Share, () => string> = {
  complaintPercent: m.deskRulesComplaintsOn,
  lowRatingPercent: m.deskRulesLowRatingsOn,
};

const WHOLE = ['workingDays', 'sosReraiseSeconds'] as const satisfies readonly Field[];
const SHARES = ['complaintPercent', 'lowRatingPercent'] as const satisfies readonly Share[];

const isShare = (field: Field): field is Share =>
  field === 'complaintPercent' || field === 'lowRatingPercent';

const shown = (field: Field, value: number | null) =>
  value === null ? m.deskRulesNoRule() : isShare(field) ? `${formatCount(value)}%` : formatCount(value);

const rowsOf = (rules: DeskRules): SettingRow[] =>
  DESK_RULE_FIELDS.map((field) => ({ key: field, name: LABELS[field](), value: shown(field, rules[field]) }));

type Values = Record<Field, number | string>;

/** A field's input as a number, or null when blank. */
const numberOf = (value: number | string): number | null =>
  value === '' || !Number.isFinite(Number(value)) ? null : Number(value);

function RulesForm({ entry }: { entry: StateDeskRules }) {
  const [effectiveFrom, setEffectiveFrom] = useState(() => indianDayOf(new Date()));
  const [values, setValues] = useState<Values>(() => ({
    workingDays: entry.rules.workingDays,
    complaintPercent: entry.rules.complaintPercent ?? '',
    lowRatingPercent: entry.rules.lowRatingPercent ?? '',
    sosReraiseSeconds: entry.rules.sosReraiseSeconds,
  }));
  const [on, setOn] = useState<Record<Share, boolean>>(() => ({
    complaintPercent: entry.rules.complaintPercent !== null,
    lowRatingPercent: entry.rules.lowRatingPercent !== null,
  }));
  const [done, setDone] = useState<string | null>(null);
  const save = useSaveDeskRules(entry.state);
  // A field left empty is named here: an empty share that is switched on is no rule to the server.
  const [missing, setMissing] = useState<Field[]>([]);
  const fieldErrors: Partial<Record<string, string[]>> = {
    ...(save.error instanceof ApiError ? (save.error.body.fieldErrors ?? {}) : {}),
    ...Object.fromEntries(missing.map((field) => [`rules.${field}`, [m.fieldRequired()]])),
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    const empty = DESK_RULE_FIELDS.filter(
      (field) => !(isShare(field) && !on[field]) && numberOf(values[field]) === null,
    );
    setMissing(empty);
    if (empty.length > 0) return;
    const rules = Object.fromEntries(
      DESK_RULE_FIELDS.map((field) => [field, isShare(field) && !on[field] ? null : numberOf(values[field])]),
    ) as DeskRules;
    save.mutate(
      { effectiveFrom, rules },
      {
        onSuccess: () =>
          setDone(
            m.deskRulesSaved({ state: stateLabel(entry.state), date: formatCalendarDate(effectiveFrom) }),
          ),
      },
    );
  };
  const input = (field: Field, disabled = false) => (
    <NumberInput
      key={field}
      label={LABELS[field]()}
      value={values[field]}
      onChange={(value) => {
        setValues((current) => ({ ...current, [field]: value }));
        setMissing((current) => current.filter((other) => other !== field));
      }}
      min={DESK_RULE_LIMITS[field].min}
      max={DESK_RULE_LIMITS[field].max}
      allowNegative={false}
      allowDecimal={isShare(field)}
      clampBehavior="none"
      disabled={disabled}
      error={fieldErrors[`rules.${field}`]?.[0]}
    />
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {WHOLE.map((field) => input(field))}
          {SHARES.map((field) => (
            <Stack key={field} gap={6}>
              <Checkbox
                label={SWITCHES[field]()}
                checked={on[field]}
                onChange={(event) => {
                  const checked = event.currentTarget.checked;
                  setOn((current) => ({ ...current, [field]: checked }));
                }}
              />
              {input(field, !on[field])}
            </Stack>
          ))}
        </SimpleGrid>
        <SaveFromDay
          dateLabel={m.deskRulesEffectiveFrom()}
          effectiveFrom={effectiveFrom}
          onEffectiveFrom={setEffectiveFrom}
          error={save.error}
          done={done}
          saveLabel={m.deskRulesSave({ state: stateLabel(entry.state) })}
          saving={save.isPending}
        />
      </Stack>
    </form>
  );
}

/**
 * Each state's grievance and SOS rules (decision 036): the state's in effect today (or its
 * defaults), those saved for later days, and the form that changes them from a day on.
 */
export function DeskRulesSection() {
  const all = useDeskRules();
  const [state, setState] = useState<State>('delhi');
  const entry = all.data?.find((candidate) => candidate.state === state);
  const name = stateLabel(state);
  return (
    <Section title={m.deskRulesTitle()}>
      <Text size="sm" c="dimmed">
        {m.deskRulesIntro()}
      </Text>
      <NativeSelect
        label={m.deskRulesState()}
        value={state}
        onChange={(event) => setState(event.currentTarget.value as State)}
        data={STATES.map((value) => ({ value, label: stateLabel(value) }))}
        w={{ base: '100%', xs: 280 }}
      />
      {all.isError && !all.data ? (
        <ErrorAlert error={all.error} />
      ) : !entry ? (
        <ListLoader label={m.deskRulesLoading()} />
      ) : (
        <DatedSettings
          effectiveFrom={entry.effectiveFrom}
          sinceText={(date) => m.deskRulesInEffectSince({ date })}
          defaultsText={m.deskRulesDefaults()}
          current={entry.rules}
          currentLabel={m.deskRulesInEffectTitle({ state: name })}
          scheduled={entry.scheduled.map((later) => ({
            effectiveFrom: later.effectiveFrom,
            value: later.rules,
          }))}
          laterLabel={(date) => m.figuresFrom({ date })}
          rowsOf={rowsOf}
        >
          <RulesForm key={state} entry={entry} />
        </DatedSettings>
      )}
    </Section>
  );
}
