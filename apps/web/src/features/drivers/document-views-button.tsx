import { Button } from '@mantine/core';
import { lazy, useRef, useState } from 'react';
import type { DocumentKey } from '@bmet/shared/constants';
import { documentLabel } from '@bmet/shared/labels';
import { m } from '@bmet/shared/paraglide/messages';
import { OnDemand } from '../../components/on-demand';

const DocumentViewsDialog = lazy(() =>
  import('./document-views-dialog').then((module) => ({ default: module.DocumentViewsDialog })),
);

/** Opens the history of who was served a document's image (its code loads at the first opening). */
export function DocumentViewsButton({
  driverId,
  documentKey,
}: {
  driverId: string;
  documentKey: DocumentKey;
}) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  // Back to this button on closing: the dialog mounts already open (its code loads on demand),
  // so the modal itself never saw what had the focus before it.
  const close = () => {
    setOpen(false);
    opener.current?.focus();
  };
  return (
    <>
      <Button
        ref={opener}
        variant="subtle"
        size="compact-sm"
        px={0}
        display="block"
        mt={2}
        onClick={() => setOpen(true)}
        aria-label={m.documentViewsOf({ document: documentLabel(documentKey) })}
        aria-haspopup="dialog"
      >
        {m.documentViewsButton()}
      </Button>
      <OnDemand open={open}>
        <DocumentViewsDialog driverId={driverId} documentKey={documentKey} opened={open} onClose={close} />
      </OnDemand>
    </>
  );
}
