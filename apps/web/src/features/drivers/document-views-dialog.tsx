import { Modal, Stack, Text } from '@mantine/core';
import { type DocumentKey } from '@bmet/shared/constants';
import { WATERMARKED_DOCUMENTS } from '@bmet/shared/document-rules';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { roleLabel } from '@bmet/shared/role-label';
import { Cell, ListTable } from '../../components/list-table';
import { LoadMoreButton } from '../../components/load-more-button';
import { formatDateTime } from '../../lib/format';
import { useDocumentViews } from './api';
import { Spinner } from '../../components/spinner';

const WATERMARKED: readonly DocumentKey[] = WATERMARKED_DOCUMENTS;

/** The views, read when the dialog opens (it mounts then), so that the latest are listed. */
function ViewsList({ driverId, documentKey }: { driverId: string; documentKey: DocumentKey }) {
  const views = useDocumentViews(driverId, documentKey);
  if (views.isPending) return <Spinner label={m.documentViewsLoading()} size="sm" />;
  if (views.isError) return <Text c="red">{views.error.message}</Text>;
  const entries = views.data.pages.flatMap((page) => page.data);
  if (entries.length === 0) return <Text c="dimmed">{m.documentViewsEmpty()}</Text>;
  return (
    <>
      <ListTable
        label={m.documentViewsOf({ document: documentLabel(documentKey) })}
        columns={[m.documentViewsViewer(), m.documentViewsRole(), m.documentViewsWhen()]}
      >
        {entries.map((view, index) => (
          // Pages only ever append, so a row's place is a stable key (a view has no id to show).
          <tr key={index} role="row">
            <Cell label={m.documentViewsViewer()}>{view.viewer.name}</Cell>
            <Cell label={m.documentViewsRole()}>{roleLabel(view.viewer.role)}</Cell>
            <Cell label={m.documentViewsWhen()}>
              <time dateTime={view.at}>{formatDateTime(view.at)}</time>
            </Cell>
          </tr>
        ))}
      </ListTable>
      <LoadMoreButton query={views} size="xs">
        {m.documentViewsLoadMore()}
      </LoadMoreButton>
    </>
  );
}

/** Who was served a document's image and when (India time), newest first. */
export function DocumentViewsDialog({
  driverId,
  documentKey,
  opened,
  onClose,
}: {
  driverId: string;
  documentKey: DocumentKey;
  opened: boolean;
  onClose: () => void;
}) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={m.documentViewsOf({ document: documentLabel(documentKey) })}
      closeButtonProps={{ 'aria-label': m.close() }}
      size="lg"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {m.documentViewsIntro()}
        </Text>
        {WATERMARKED.includes(documentKey) && <Text size="sm">{m.documentViewsWatermarked()}</Text>}
        <ViewsList driverId={driverId} documentKey={documentKey} />
      </Stack>
    </Modal>
  );
}
