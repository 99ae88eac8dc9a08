import { lazy } from 'react';
import type { ConfirmDialogProps } from './confirm-dialog-modal';
import { OnDemand } from './on-demand';

const Modal = lazy(() =>
  import('./confirm-dialog-modal').then((module) => ({ default: module.ConfirmDialogModal })),
);

/**
 * Asks before a change that cannot be undone from here: Cancel, or the named action. The dialog's
 * code loads when it first opens, so the screens that offer such a change do not carry it.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <OnDemand open={props.opened}>
      <Modal {...props} />
    </OnDemand>
  );
}
