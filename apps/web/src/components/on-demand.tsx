import { Suspense, useState, type ReactNode } from 'react';

/**
 * A dialog whose code loads when it is first opened (a React.lazy child): nothing before, then
 * kept mounted so that it closes with its animation and reopens at once.
 */
export function OnDemand({ open, children }: { open: boolean; children: ReactNode }) {
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  return wanted ? <Suspense fallback={null}>{children}</Suspense> : null;
}
