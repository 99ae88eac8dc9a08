import type { DocumentStatus } from '@bmet/shared/constants';

/** The colour of a document's review state, wherever a document is shown. */
export const DOCUMENT_STATUS_COLORS: Record<DocumentStatus, string> = {
  not_submitted: 'gray',
  submitted: 'yellow',
  approved: 'teal',
  rejected: 'red',
};
