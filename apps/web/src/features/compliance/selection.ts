import { createContext } from 'react';
import type { ComplianceEntry } from '@bmet/shared/schemas/compliance';

/**
 * The documents chosen for a batch approval. The rows read it from here rather than from their
 * props: the list's rows are rendered in the background (ListTable), and a box ticked must show
 * ticked at once, not when the rows are next rendered.
 */
export type Selection = {
  selected: ReadonlySet<string>;
  toggle: (entry: ComplianceEntry) => void;
};

export const SelectionContext = createContext<Selection>({ selected: new Set(), toggle: () => {} });
