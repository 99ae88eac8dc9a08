import type { ReactNode } from 'react';
import classes from './fare-rules.module.css';

/**
 * Holds a table that may be wider than the page: it scrolls sideways, and can be scrolled with the
 * keyboard (focusable, named as its table is).
 */
export function WideTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className={classes.cards} role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
