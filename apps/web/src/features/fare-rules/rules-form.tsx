import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CAR_TYPES, type CarType } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { FareRule, FareRuleField, FareRuleInput, StateFareRules } from '@bmet/shared/schemas/fare-rule';
import { DateField } from '../../components/date-field';
import { ApiError } from '../../lib/api-client';
import { formatCalendarDate, stateLabel } from '../../lib/format';
import { useSaveFareRules } from './api';
import classes from './fare-rules.module.css';
import { FIELDS, fieldHint, fieldLabel, fieldMax, todayInIndia } from './fields';

type TypeValues = Record<FareRuleField, number | string>;
type FormValues = Record<CarType, TypeValues>;
/** Errors by the server's keys: `effectiveFrom`, `rules.sedan.minMultiple`, ... */
type FieldErrors = Record<string, string>;

type Message = { kind: 'success'; text: string } | { kind: 'error'; detail: string; others: string[] };

/** Rules saved for a later day, to start the form from. */
export type FormStart = { effectiveFrom: string; rules: Partial<Record<CarType, FareRule>> };

const valuesOf = (rule: FareRule | undefined): TypeValues =>
  Object.fromEntries(FIELDS.map((field) => [field, rule?.[field] ?? ''])) as TypeValues;

const formOf = (rules: StateFareRules['rules'], over: FormStart['rules'] = {}): FormValues =>
  Object.fromEntries(CAR_TYPES.map((type) => [type, valuesOf(over[type] ?? rules[type])])) as FormValues;

/** A field's input as a number, or null when blank or no number. */
function numberOf(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (value.trim() === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

const sameValue = (a: number | string, b: number | string) => numberOf(a) === numberOf(b);

const errorKey = (type: CarType, field: FareRuleField) => `rules.${type}.${field}`;

/**
 * The form that changes a state's rules from a day on: every car type's eight values, started from
 * those in effect today (or from rules scheduled for a later day). Only the car types whose values
 * change are sent, so that the others keep the day they took effect.
 */
export function RulesForm({ entry, start }: { entry: StateFareRules; start?: FormStart }) {
  const state = entry.state;
  const [effectiveFrom, setEffectiveFrom] = useState(() => start?.effectiveFrom ?? todayInIndia());
  const [initial, setInitial] = useState(() => formOf(entry.rules));
  const [values, setValues] = useState(() => formOf(entry.rules, start?.rules));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<Message | null>(null);
  const save = useSaveFareRules(state);
  const formRef = useRef<HTMLFormElement>(null);

  // Rules loaded from the scheduled ones: the admin goes on from the form's first field.
  useEffect(() => {
    if (start) formRef.current?.querySelector('input')?.focus();
  }, [start]);

  const change = (type: CarType, field: FareRuleField, value: number | string) => {
    setValues((current) => ({ ...current, [type]: { ...current[type], [field]: value } }));
    setErrors(({ [errorKey(type, field)]: _cleared, ...rest }) => rest);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMessage(null);
    const found: FieldErrors = {};
    if (!effectiveFrom) found.effectiveFrom = m.fareRulesDateInvalid();
    const changed = CAR_TYPES.filter((type) =>
      FIELDS.some((field) => !sameValue(values[type][field], initial[type][field])),
    );
    const rules: Partial<Record<CarType, FareRuleInput>> = {};
    for (const type of changed) {
      const rule = {} as FareRuleInput;
      for (const field of FIELDS) {
        const number = numberOf(values[type][field]);
        if (number === null) found[errorKey(type, field)] = m.fareRulesRequired();
        else rule[field] = number;
      }
      rules[type] = rule;
    }
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setMessage({ kind: 'error', detail: m.validationFailed(), others: [] });
      return;
    }
    if (changed.length === 0) {
      setMessage({ kind: 'error', detail: m.fareRulesNothingChanged(), others: [] });
      return;
    }
    save.mutate(
      { effectiveFrom, rules },
      {
        onSuccess: (saved) => {
          const fresh = formOf(saved.rules);
          setInitial(fresh);
          setValues(fresh);
          setMessage({
            kind: 'success',
            text: m.fareRulesSaved({ state: stateLabel(state), date: formatCalendarDate(effectiveFrom) }),
          });
        },
        onError: (error) => {
          const next: FieldErrors = {};
          const others: string[] = [];
          const shown = new Set([
            'effectiveFrom',
            ...CAR_TYPES.flatMap((type) => FIELDS.map((field) => errorKey(type, field))),
          ]);
          if (error instanceof ApiError) {
            for (const [key, messages] of Object.entries(error.body.fieldErrors ?? {})) {
              const [first] = messages;
              if (first === undefined) continue;
              if (shown.has(key)) next[key] = first;
              else others.push(first);
            }
          }
          setErrors(next);
          setMessage({ kind: 'error', detail: error.message, others });
        },
      },
    );
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {m.fareRulesEditExplanation()}
        </Text>
        <DateField
          label={m.fareRulesEffectiveFrom()}
          description={m.fareRulesEffectiveFromHint()}
          value={effectiveFrom}
          onChange={(date) => {
            setEffectiveFrom(date);
            setErrors(({ effectiveFrom: _cleared, ...rest }) => rest);
          }}
          error={errors.effectiveFrom}
          w={{ base: '100%', xs: 320 }}
        />
        {CAR_TYPES.map((type) => (
          <fieldset key={type} className={classes.carType}>
            <legend>{carTypeLabel(type)}</legend>
            <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }} spacing="sm" verticalSpacing="sm">
              {FIELDS.map((field) => (
                <NumberInput
                  key={field}
                  label={fieldLabel(field)}
                  description={fieldHint(field)}
                  value={values[type][field]}
                  onChange={(value) => change(type, field, value)}
                  error={errors[errorKey(type, field)]}
                  min={0}
                  max={fieldMax(field)}
                  clampBehavior="none"
                  allowNegative={false}
                  decimalScale={2}
                  inputMode="decimal"
                />
              ))}
            </SimpleGrid>
          </fieldset>
        ))}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {m.fareRulesSave({ state: stateLabel(state) })}
          </Button>
        </Group>
        {message?.kind === 'success' && (
          <Alert color="teal" variant="light" role="status" icon={<IconCheck size={18} />}>
            {message.text}
          </Alert>
        )}
        {message?.kind === 'error' && (
          <Alert color="red" variant="light" role="alert" title={m.fareRulesSaveFailed()}>
            <Text size="sm">{message.detail}</Text>
            {message.others.length > 0 && (
              <ul className={classes.others}>
                {message.others.map((text) => (
                  <li key={text}>{text}</li>
                ))}
              </ul>
            )}
          </Alert>
        )}
      </Stack>
    </form>
  );
}
