import { NativeSelect, Paper, Text } from '@mantine/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { STATES, type State } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { ErrorAlert } from '../../components/error-alert';
import { ListLoader } from '../../components/list-loader';
import { Page } from '../../components/page';
import { Section } from '../../components/section';
import { stateLabel } from '../../lib/format';
import { useFareRules } from './api';
import { FareReportSection } from './fare-report';
import { todayInIndia } from './fields';
import type { FormStart } from './rules-form';
import { RulesInEffect, ScheduledRules } from './rules-tables';

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

// The form (number and date inputs) loads after the rules have shown: fetched in the background
// as the screen opens, it keeps the screen's first load small.
const loadForm = () => import('./rules-form');
const RulesForm = lazy(() => loadForm().then((module) => ({ default: module.RulesForm })));
const FiguresSection = lazy(() =>
  import('./figures-section').then((module) => ({ default: module.FiguresSection })),
);

/** The state's rules: in effect today, scheduled, and the form that changes them. */
function StateRules({ state }: { state: State }) {
  const rules = useFareRules();
  // Scheduled rules loaded into the form; each load starts the form again.
  const [start, setStart] = useState<{ rules: FormStart; load: number } | null>(null);
  const entry = rules.data?.find((candidate) => candidate.state === state);

  if (rules.isError && !rules.data) return <ErrorAlert error={rules.error} />;
  if (!entry) return <ListLoader label={m.fareRulesLoading()} />;
  const name = stateLabel(state);
  return (
    <>
      <Section title={m.fareRulesInEffectTitle({ state: name })}>
        <Text size="sm" c="dimmed">
          {m.fareRulesDefaultNote()}
        </Text>
        <RulesInEffect entry={entry} />
      </Section>
      <Section title={m.fareRulesScheduledTitle()}>
        <ScheduledRules
          entry={entry}
          onEdit={(scheduled) =>
            setStart((current) => ({ rules: scheduled, load: (current?.load ?? 0) + 1 }))
          }
        />
      </Section>
      <Section title={m.fareRulesEditTitle({ state: name })}>
        <Suspense fallback={<ListLoader label={m.fareRulesLoading()} />}>
          <RulesForm key={`${state}:${start?.load ?? 0}`} entry={entry} start={start?.rules} />
        </Suspense>
      </Section>
      <Section title={m.figuresTitle({ state: name })}>
        <Suspense fallback={<ListLoader label={m.fareRulesLoading()} />}>
          <FiguresSection state={state} />
        </Suspense>
      </Section>
    </>
  );
}

/**
 * `/fare-rules` (admins): each state's fare rules under the aggregator guidelines (the notified
 * fares, the band around them, the cancellation fee and the driver's share), changed from a day
 * on, and the month's report of rates outside the band and commission above its cap. The state and
 * the month live in the address.
 */
export function FareRulesScreen() {
  const [params, setParams] = useSearchParams();
  useEffect(() => {
    void loadForm();
  }, []);
  const asked = params.get('state');
  const state = STATES.find((candidate) => candidate === asked) ?? null;
  const askedMonth = params.get('month');
  const month = askedMonth && MONTH.test(askedMonth) ? askedMonth : todayInIndia().slice(0, 7);
  const set = (name: string, value: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );

  return (
    <Page title={m.fareRulesTitle()}>
      <Text c="dimmed" size="sm">
        {m.fareRulesIntro()}
      </Text>
      <Paper withBorder p="md" radius="md" maw={480}>
        <NativeSelect
          label={m.ratesStateLabel()}
          description={m.fareRulesStateDescription()}
          value={state ?? ''}
          onChange={(event) => set('state', event.currentTarget.value || null)}
          data={[
            { value: '', label: m.selectState(), disabled: true },
            ...STATES.map((value) => ({ value, label: stateLabel(value) })),
          ]}
        />
      </Paper>
      {state && <StateRules state={state} />}
      <FareReportSection month={month} onMonth={(next) => set('month', next)} />
    </Page>
  );
}
