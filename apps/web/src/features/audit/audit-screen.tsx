import { Anchor, Checkbox, Group, NativeSelect, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import type { CarType, State } from '@bmet/shared/constants';
import { carTypeLabel, stateLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { roleLabel } from '@bmet/shared/role-label';
import {
  AUDIT_ACTIONS,
  AUDIT_RECORD_TYPES,
  type AuditAction,
  type AuditRecordType,
} from '@bmet/shared/audit-constants';
import type { AuditEntry } from '@bmet/shared/schemas/audit';
import { AUDIT_SORTS, DEFAULT_ORDERS } from '@bmet/shared/schemas/sort';
import { DateField } from '../../components/date-field';
import { ErrorAlert } from '../../components/error-alert';
import { ExportButton } from '../../components/export-button';
import { Filters } from '../../components/filters';
import { ListLoader } from '../../components/list-loader';
import { Cell, ListTable, listTableClasses } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { Page } from '../../components/page';
import { RowButton, Tag } from '../../components/row-parts';
import { SortSelect, type SortOption } from '../../components/sort-select';
import { formatDateTime } from '../../lib/format';
import { isDate, isLabel, isUuid, oneOf } from '../../lib/param-checks';
import { useListParams, type SortSpec } from '../../lib/use-list-params';
import { useSession } from '../../lib/session-context';
import { can } from '@bmet/shared/permissions';
import { AuditChanges } from './audit-changes';
import { useAuditTrail, type AuditFilters } from './api';
import classes from './audit.module.css';
import { actionLabel, recordTypeLabel } from '@bmet/shared/audit-labels';

type AuditSort = (typeof AUDIT_SORTS)[number];
const SORT: SortSpec<AuditSort> = { fields: AUDIT_SORTS, defaultOrder: DEFAULT_ORDERS.audit };
const PARAMS = {
  actor: isUuid,
  actorName: isLabel,
  recordType: oneOf(AUDIT_RECORD_TYPES),
  recordId: isLabel,
  recordName: isLabel,
  action: oneOf(AUDIT_ACTIONS),
  from: isDate,
  to: isDate,
  system: oneOf(['true']),
};

const sortOptions = (): SortOption<AuditSort>[] => [
  { field: 'at', order: 'desc', label: m.sortNewestFirst() },
  { field: 'at', order: 'asc', label: m.sortOldestFirst() },
];

/** The trail's filters and sort as the address holds them, with the names their chips show. */
function useAuditFilters() {
  const { values, update, sort, setSort, sortQuery } = useListParams({ params: PARAMS, sort: SORT });
  const filters = useMemo(
    () =>
      ({
        actor: values.actor,
        recordType: values.recordType as AuditRecordType | undefined,
        recordId: values.recordId,
        action: values.action as AuditAction | undefined,
        from: values.from,
        to: values.to,
        system: values.system === 'true' ? 'true' : undefined,
        ...sortQuery,
      }) satisfies AuditFilters,
    [values, sortQuery],
  );
  const names = { actor: values.actorName ?? null, record: values.recordName ?? null };
  return { filters, names, update, sort, setSort };
}

/** A filter shown as a removable chip: a person's changes, a record's history. */
function FilterChip({ label, onRemove }: { label: string; onRemove: () => void }) {
  return (
    <RowButton variant="default" onClick={onRemove} aria-label={m.auditClearFilter({ filter: label })}>
      {label} <IconX size={12} aria-hidden />
    </RowButton>
  );
}

/** What a record is called: its name now, a rate set's state and car type, else its id. */
function recordName(entry: AuditEntry): string {
  if (entry.recordName) return entry.recordName;
  if (entry.recordType === 'car-rates' && entry.recordId?.includes('/')) {
    const [state, carType] = entry.recordId.split('/') as [string, string];
    return `${stateLabel(state as State)} · ${carTypeLabel(carType as CarType)}`;
  }
  return entry.recordId ?? '-';
}

function RecordCell({ entry, onHistory }: { entry: AuditEntry; onHistory: () => void }) {
  const name = recordName(entry);
  const open = entry.driverId
    ? { to: `/drivers/${entry.driverId}`, label: m.auditOpenDriver() }
    : entry.tripId
      ? { to: `/trips/${entry.tripId}`, label: m.auditOpenTrip() }
      : null;
  return (
    <div className={classes.who}>
      <Text size="xs" c="dimmed">
        {recordTypeLabel(entry.recordType)}
      </Text>
      <button
        type="button"
        className={classes.link}
        onClick={onHistory}
        aria-label={m.auditShowRecord({ name })}
      >
        {name}
      </button>
      {open && (
        <Anchor component={Link} to={open.to} size="xs">
          {open.label}
        </Anchor>
      )}
    </div>
  );
}

/** The history record a row's record link narrows the trail to (a driver with its documents). */
function historyOf(entry: AuditEntry): { recordType: string; recordId: string } | null {
  if (entry.driverId) return { recordType: 'drivers', recordId: entry.driverId };
  if (entry.tripId) return { recordType: 'trip-feedback', recordId: entry.tripId };
  return entry.recordId ? { recordType: entry.recordType, recordId: entry.recordId } : null;
}

/** `/audit`: every change, who made it, when and what it changed, filtered on the server. */
export function AuditScreen() {
  const { session } = useSession();
  const { filters, names, update, sort, setSort } = useAuditFilters();
  const trail = useAuditTrail(filters);
  const entries = trail.data?.pages.flatMap((page) => page.data) ?? [];
  const active = [filters.recordType, filters.action, filters.from, filters.to].filter(Boolean).length;
  const any = { value: '', label: m.tripsFilterAny() };
  const actorChip = filters.actor ? m.auditFilterPerson({ name: names.actor ?? filters.actor }) : null;
  const recordChip = filters.recordId
    ? m.auditFilterRecord({ name: names.record ?? filters.recordId })
    : null;

  return (
    <Page title={m.auditTitle()} actions={<ExportButton path="/audit/export.csv" query={filters} />}>
      <Text c="dimmed" size="sm">
        {m.auditIntro()}
      </Text>
      <Group align="end" gap="sm" wrap="wrap">
        <SortSelect options={sortOptions()} sort={sort} onChange={setSort} phoneOnly />
        <Filters active={active}>
          <NativeSelect
            label={m.auditFilterRecordType()}
            value={filters.recordType ?? ''}
            onChange={(event) =>
              update({ recordType: event.currentTarget.value, recordId: undefined, recordName: undefined })
            }
            data={[
              any,
              ...AUDIT_RECORD_TYPES.filter((type) =>
                can(session, type === 'car-rates' ? ['car-rates', 'list'] : ['audit', 'list']),
              ).map((type) => ({ value: type, label: recordTypeLabel(type) })),
            ]}
            w={180}
          />
          <NativeSelect
            label={m.auditFilterAction()}
            value={filters.action ?? ''}
            onChange={(event) => update({ action: event.currentTarget.value })}
            data={[any, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action) }))]}
            w={160}
          />
          <DateField
            label={m.auditFilterFrom()}
            value={filters.from ?? ''}
            onChange={(from) => update({ from })}
            w={150}
          />
          <DateField
            label={m.auditFilterTo()}
            value={filters.to ?? ''}
            onChange={(to) => update({ to })}
            w={150}
          />
          <Checkbox
            label={m.auditShowSystem()}
            checked={filters.system === 'true'}
            onChange={(event) => update({ system: event.currentTarget.checked ? 'true' : undefined })}
          />
        </Filters>
      </Group>
      {(actorChip || recordChip) && (
        <div className={classes.chips}>
          {actorChip && (
            <FilterChip
              label={actorChip}
              onRemove={() => update({ actor: undefined, actorName: undefined })}
            />
          )}
          {recordChip && (
            <FilterChip
              label={recordChip}
              onRemove={() => update({ recordId: undefined, recordName: undefined, recordType: undefined })}
            />
          )}
        </div>
      )}
      {trail.isError && !trail.data ? (
        <ErrorAlert error={trail.error} />
      ) : trail.isPending ? (
        <ListLoader label={m.auditLoading()} />
      ) : entries.length === 0 ? (
        <Text c="dimmed">{active > 0 || actorChip || recordChip ? m.auditEmpty() : m.auditNothingYet()}</Text>
      ) : (
        <ListTable
          label={m.auditTitle()}
          sorting={{ ...sort, onSort: setSort }}
          columns={[
            { label: m.auditColumnWhen(), sort: 'at' },
            m.auditColumnWho(),
            m.auditColumnAction(),
            m.auditColumnRecord(),
            m.auditColumnChanges(),
          ]}
        >
          {entries.map((entry) => {
            const history = historyOf(entry);
            const who = entry.actor
              ? entry.actor.name || entry.actor.email
              : entry.source === 'firebase'
                ? m.changedByFirebase()
                : entry.source === 'driver-app'
                  ? m.changedByDriverApp()
                  : m.auditNoActor();
            return (
              <tr key={entry.id} role="row">
                <Cell label="">
                  <span className={listTableClasses.title}>{formatDateTime(entry.at)}</span>
                </Cell>
                <Cell label={m.auditColumnWho()}>
                  {entry.actor ? (
                    <div className={classes.who}>
                      <button
                        type="button"
                        className={classes.link}
                        onClick={() => update({ actor: entry.actor!.id, actorName: who })}
                        aria-label={m.auditShowPerson({ name: who })}
                      >
                        {who}
                      </button>
                      <Text size="xs" c="dimmed">
                        {roleLabel(entry.actor.role)}
                      </Text>
                    </div>
                  ) : (
                    who
                  )}
                </Cell>
                <Cell label={m.auditColumnAction()}>
                  <Tag color="blue">{actionLabel(entry.action)}</Tag>
                </Cell>
                <Cell label={m.auditColumnRecord()}>
                  <RecordCell
                    entry={entry}
                    onHistory={() =>
                      history &&
                      update({
                        ...history,
                        recordName: recordName(entry),
                      })
                    }
                  />
                </Cell>
                <Cell label={m.auditColumnChanges()}>
                  <AuditChanges before={entry.before} after={entry.after} type={entry.recordType} />
                </Cell>
              </tr>
            );
          })}
        </ListTable>
      )}
      {entries.length > 0 && <LoadMoreButton query={trail}>{m.auditLoadMore()}</LoadMoreButton>}
    </Page>
  );
}
