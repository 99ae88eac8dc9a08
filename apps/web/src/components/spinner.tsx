import { Loader, type LoaderProps } from '@mantine/core';

/**
 * A loader named for screen readers by `label`. Named, it is a progress bar: ARIA allows a name
 * only on an element with a role, and axe refuses a labelled span without one. A loader that only
 * decorates a control that says what it does stays a plain, hidden Mantine Loader.
 */
export function Spinner({ label, ...props }: LoaderProps & { label: string }) {
  // data-content-loading: a page that waits for its content (a driver's file before it prints)
  // looks for it. Not data-loading, which Mantine puts on a button with its loader.
  return <Loader role="progressbar" aria-label={label} data-content-loading="" {...props} />;
}
