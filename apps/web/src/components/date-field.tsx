import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { formatCalendarDate, parseCalendarDate } from '../lib/format';
import { m } from '@bmet/shared/paraglide/messages';

/**
 * A date typed as DD/MM/YYYY, as staff in India write it (a browser's own date input shows the
 * browser's format, mm/dd/yyyy in most). Hands on a YYYY-MM-DD date, or '' once emptied; a date
 * that is not real is named as such and changes nothing. `error` is one from outside (the
 * server's), shown while what is typed is a date.
 */
export function DateField({
  value,
  onChange,
  error: outsideError,
  ...props
}: Omit<TextInputProps, 'value' | 'onChange' | 'error'> & {
  value: string;
  onChange: (date: string) => void;
  error?: string | null;
}) {
  const [text, setText] = useState(() => (value ? formatCalendarDate(value) : ''));
  const [error, setError] = useState<string | null>(null);
  // Follows a value set from outside (a filter reset), keeping what is typed when it agrees.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    if (parseCalendarDate(text) !== value && (value || text.trim())) {
      setText(value ? formatCalendarDate(value) : '');
    }
  }

  const commit = (next: string) => {
    if (next.trim() === '') {
      setError(null);
      if (value) onChange('');
      return;
    }
    const date = parseCalendarDate(next);
    if (!date) {
      setError(m.filtersInvalidDate());
      return;
    }
    setError(null);
    if (date !== value) onChange(date);
  };

  return (
    <TextInput
      {...props}
      value={text}
      placeholder="DD/MM/YYYY"
      inputMode="numeric"
      autoComplete="off"
      maxLength={10}
      error={error ?? outsideError}
      onChange={(event) => {
        const next = event.currentTarget.value;
        setText(next);
        // A whole date applies at once; anything shorter waits for the field to be left.
        if (next.trim() === '' || parseCalendarDate(next)) commit(next);
        else if (error) setError(null);
      }}
      onBlur={(event) => commit(event.currentTarget.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') commit(event.currentTarget.value);
      }}
    />
  );
}
