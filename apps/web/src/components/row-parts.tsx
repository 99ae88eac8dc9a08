import type { ComponentPropsWithRef, CSSProperties, ReactNode } from 'react';
import classes from './row-parts.module.css';

export type TagColor = 'gray' | 'blue' | 'cyan' | 'teal' | 'green' | 'red' | 'grape' | 'orange' | 'yellow';

/** A badge in a list row: `light` (the default), `outline` or `filled`, in one of Mantine's colours. */
export function Tag({
  color,
  variant = 'light',
  plainCase = false,
  children,
}: {
  color: TagColor;
  variant?: 'light' | 'outline' | 'filled';
  /** Keeps the text's own case (a notice with a name in it). */
  plainCase?: boolean;
  children: ReactNode;
}) {
  const style = {
    '--tag-light': `var(--mantine-color-${color}-light)`,
    '--tag-text': `var(--mantine-color-${color}-light-color)`,
    '--tag-filled': `var(--mantine-color-${color}-filled)`,
  } as CSSProperties;
  return (
    <span
      className={classes.tag}
      data-variant={variant}
      data-plain-case={plainCase || undefined}
      style={style}
    >
      {children}
    </span>
  );
}

/** A button in a list row: blue `light` (the default), `default`, `danger` or `danger-light`. */
export function RowButton({
  variant = 'light',
  loading = false,
  disabled,
  children,
  ...rest
}: Omit<ComponentPropsWithRef<'button'>, 'className'> & {
  variant?: 'light' | 'default' | 'danger' | 'danger-light';
  loading?: boolean;
}) {
  return (
    <button
      type="button"
      className={classes.button}
      data-variant={variant}
      aria-busy={loading || undefined}
      disabled={disabled || loading}
      {...rest}
    >
      {children}
    </button>
  );
}
