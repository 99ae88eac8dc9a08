import { useId } from 'react';
import classes from './choice-group.module.css';

export type Choice<T extends string> = { value: T; label: string };

/**
 * One of a few choices side by side, the chosen one raised: the browser's own radio buttons (one
 * tab stop, arrow keys move the choice), drawn as segments. In place of Mantine's
 * SegmentedControl, whose sliding indicator measured the page on every render: a forced layout
 * each time one of the dashboard's answers arrived. Here the chosen segment is drawn by CSS alone.
 */
export function ChoiceGroup<T extends string>({
  value,
  onChange,
  data,
  label,
  labelledBy,
  fullWidthOnPhone = false,
}: {
  value: T;
  onChange: (value: T) => void;
  data: readonly Choice<T>[];
  label?: string;
  labelledBy?: string;
  /** Across the whole width on a phone (below Mantine's xs breakpoint); above it, as wide as its text unless its parent stretches it. */
  fullWidthOnPhone?: boolean;
}) {
  const name = useId();
  return (
    <div
      role="radiogroup"
      aria-label={label}
      aria-labelledby={labelledBy}
      className={fullWidthOnPhone ? `${classes.group} ${classes.fullWidthOnPhone}` : classes.group}
    >
      {data.map((choice) => (
        <label key={choice.value} className={classes.choice}>
          <input
            type="radio"
            className={classes.input}
            name={name}
            value={choice.value}
            checked={choice.value === value}
            onChange={() => onChange(choice.value)}
          />
          <span className={classes.label}>{choice.label}</span>
        </label>
      ))}
    </div>
  );
}
