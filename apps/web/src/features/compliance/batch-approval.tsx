import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { use, useState } from 'react';
import type { DocumentKey } from '@bmet/shared/constants';
import { DOCUMENT_APPROVALS_MAX, documentExpires } from '@bmet/shared/document-rules';
import { m } from '@bmet/shared/paraglide/messages';
import type { ComplianceEntry } from '@bmet/shared/schemas/compliance';
import { formatCount } from '../../lib/format';
import { showNotification } from '../../lib/notify';
import { entryId, refId, refOf, useApproveDocuments } from './api';
import classes from './compliance.module.css';
import { SelectionContext } from './selection';

type Failure = { id: string; name: string; document: string; reason: string };

/** Whether a listed document awaits review and may be approved with others (it needs no date). */
const approvableTogether = (entry: ComplianceEntry) =>
  entry.status === 'submitted' && !documentExpires(entry.document as DocumentKey);

/** A row's choice for the batch; none for a document that needs its expiry date at approval. */
export function ApprovalCheckbox({ entry }: { entry: ComplianceEntry }) {
  const { selected, toggle } = use(SelectionContext);
  if (!approvableTogether(entry)) return null;
  return (
    <input
      type="checkbox"
      className={classes.check}
      checked={selected.has(entryId(entry))}
      onChange={() => toggle(entry)}
      aria-label={m.complianceSelectDocument({ document: entry.label, name: entry.driverName })}
    />
  );
}

/**
 * Approves the chosen documents of the review view that need no expiry date, all at once. The
 * server checks each one as it checks a single approval; those it refuses stay chosen and are
 * listed with the reason, the others leave the list.
 */
export function BatchApproval({
  entries,
  selected,
  onSelect,
}: {
  /** The documents the list shows. */
  entries: ComplianceEntry[];
  selected: ReadonlySet<string>;
  onSelect: (next: ReadonlySet<string>) => void;
}) {
  const approve = useApproveDocuments(DOCUMENT_APPROVALS_MAX);
  const selectable = entries.filter(approvableTogether);
  const [failures, setFailures] = useState<Failure[]>([]);
  const chosen = selectable.filter((entry) => selected.has(entryId(entry)));
  const all = selectable.length > 0 && chosen.length === selectable.length;

  const submit = () => {
    const byId = new Map(chosen.map((entry) => [entryId(entry), entry]));
    setFailures([]);
    approve.mutate(chosen.map(refOf), {
      onSuccess: ({ approved, failed }) => {
        if (approved.length > 0)
          showNotification({ color: 'teal', message: m.complianceBatchApproved({ count: approved.length }) });
        setFailures(
          failed.map((failure) => {
            const id = refId(failure);
            const entry = byId.get(id);
            return {
              id,
              name: entry?.driverName ?? failure.driverId,
              document: entry?.label ?? failure.key,
              reason: failure.error,
            };
          }),
        );
        onSelect(new Set(failed.map(refId)));
      },
    });
  };

  if (selectable.length === 0 && failures.length === 0) return null;
  return (
    <Stack gap="xs">
      <Group gap="sm" className={classes.batch}>
        {selectable.length > 0 && (
          <label className={classes.selectAll}>
            <input
              type="checkbox"
              className={classes.check}
              checked={all}
              ref={(input) => {
                if (input) input.indeterminate = chosen.length > 0 && !all;
              }}
              onChange={() => onSelect(new Set(all ? [] : selectable.map(entryId)))}
            />
            {m.complianceSelectAll()}
          </label>
        )}
        {chosen.length > 0 && (
          <>
            <Text size="sm" fw={600} aria-live="polite">
              {m.complianceSelected({ count: formatCount(chosen.length) })}
            </Text>
            <Button size="xs" color="teal" loading={approve.isPending} onClick={submit}>
              {m.complianceApproveSelected()}
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={approve.isPending}
              onClick={() => onSelect(new Set())}
            >
              {m.complianceClearSelection()}
            </Button>
          </>
        )}
      </Group>
      <Text size="xs" c="dimmed">
        {m.complianceBatchHint()}
      </Text>
      {approve.isError && (
        <Alert color="red" role="alert">
          {approve.error.message}
        </Alert>
      )}
      {failures.length > 0 && (
        <Alert
          color="red"
          role="alert"
          title={m.complianceBatchFailed({ count: failures.length })}
          withCloseButton
          closeButtonLabel={m.close()}
          onClose={() => setFailures([])}
        >
          <ul className={classes.failures}>
            {failures.map((failure) => (
              <li key={failure.id}>
                {m.complianceBatchFailure({
                  name: failure.name,
                  document: failure.document,
                  reason: failure.reason,
                })}
              </li>
            ))}
          </ul>
        </Alert>
      )}
    </Stack>
  );
}
