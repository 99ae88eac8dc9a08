import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { CAR_TYPES, type CarType } from '@bmet/shared/constants';
import { carTypeLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import type { FareRule, StateFareRules } from '@bmet/shared/schemas/fare-rule';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { formatCalendarDate, stateLabel } from '../../lib/format';
import classes from './fare-rules.module.css';
import { WideTable } from './wide-table';
import { FIELDS, fieldLabel, formatValue } from './fields';

type Scheduled = StateFareRules['scheduled'][number];

const columns = (last: string[]) => [m.ratesEditorCarType(), ...FIELDS.map(fieldLabel), ...last];

/** One car type's row: its eight values, a notified fare not entered yet said as such. */
function RuleCells({ rule }: { rule: FareRule }) {
  return (
    <>
      {FIELDS.map((field) => {
        const value = rule[field];
        return (
          <Cell key={field} label={fieldLabel(field)}>
            {value === null ? (
              <Text span size="sm" c="dimmed">
                {m.fareRulesNotNotified()}
              </Text>
            ) : (
              formatValue(field, value)
            )}
          </Cell>
        );
      })}
    </>
  );
}

/** The rules in effect today, per car type, with the day each took effect ("Default" for the guidelines'). */
export function RulesInEffect({ entry }: { entry: StateFareRules }) {
  return (
    <WideTable label={m.fareRulesInEffectLabel({ state: stateLabel(entry.state) })}>
      <ListTable
        label={m.fareRulesInEffectLabel({ state: stateLabel(entry.state) })}
        columns={columns([m.fareRulesColumnFrom()])}
      >
        {CAR_TYPES.map((type) => {
          const rule = entry.rules[type];
          return (
            <tr role="row" key={type} data-testid={`fare-rule-${type}`}>
              <Cell label="">
                <span className={`${listTableClasses.title} ${classes.nowrap}`}>{carTypeLabel(type)}</span>
              </Cell>
              <RuleCells rule={rule} />
              <Cell label={m.fareRulesColumnFrom()}>
                <span className={classes.nowrap}>
                  {rule.effectiveFrom === null
                    ? m.fareRulesDefault()
                    : formatCalendarDate(rule.effectiveFrom)}
                </span>
              </Cell>
            </tr>
          );
        })}
      </ListTable>
    </WideTable>
  );
}

/** Rules saved for later days, each day with the car types it changes; any may be loaded into the form. */
export function ScheduledRules({
  entry,
  onEdit,
}: {
  entry: StateFareRules;
  onEdit: (scheduled: Scheduled) => void;
}) {
  if (entry.scheduled.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {m.fareRulesScheduledEmpty()}
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {entry.scheduled.map((scheduled) => {
        const from = formatCalendarDate(scheduled.effectiveFrom);
        const types = CAR_TYPES.filter((type): type is CarType => scheduled.rules[type] !== undefined);
        return (
          <Stack gap="xs" key={scheduled.effectiveFrom} data-testid={`scheduled-${scheduled.effectiveFrom}`}>
            <Group justify="space-between" gap="xs">
              <Title order={4} size="h5">
                {m.fareRulesScheduledFrom({ date: from })}
              </Title>
              <Button
                size="xs"
                variant="default"
                leftSection={<IconPencil size={14} aria-hidden />}
                onClick={() => onEdit(scheduled)}
              >
                {m.fareRulesScheduledEdit({ date: from })}
              </Button>
            </Group>
            <WideTable label={m.fareRulesScheduledFrom({ date: from })}>
              <ListTable label={m.fareRulesScheduledFrom({ date: from })} columns={columns([])}>
                {types.map((type) => (
                  <tr role="row" key={type}>
                    <Cell label="">
                      <span className={`${listTableClasses.title} ${classes.nowrap}`}>
                        {carTypeLabel(type)}
                      </span>
                    </Cell>
                    <RuleCells rule={scheduled.rules[type]!} />
                  </tr>
                ))}
              </ListTable>
            </WideTable>
          </Stack>
        );
      })}
    </Stack>
  );
}
