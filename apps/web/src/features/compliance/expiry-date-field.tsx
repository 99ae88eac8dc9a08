import { ActionIcon } from '@mantine/core';
import { IconCalendar } from '@tabler/icons-react';
import { useRef } from 'react';
import { m } from '@bmet/shared/paraglide/messages';
import { DateField } from '../../components/date-field';
import classes from './compliance.module.css';

/**
 * A document's expiry date, typed as DD/MM/YYYY or chosen on a calendar: the button opens the
 * device's own date picker (a phone's, the browser's), which hands back YYYY-MM-DD whatever it
 * shows, so the field keeps reading DD/MM/YYYY. The picker starts from `min` (today in India):
 * an approval needs a date that has not passed. The server judges the date either way.
 */
export function ExpiryDateField({
  value,
  onChange,
  min,
  error,
}: {
  value: string;
  onChange: (date: string) => void;
  min: string;
  error?: string | null;
}) {
  const picker = useRef<HTMLInputElement>(null);
  const openPicker = () => {
    const input = picker.current;
    if (!input) return;
    try {
      input.showPicker();
    } catch {
      // A browser without showPicker opens its picker when the input itself is clicked.
      input.click();
    }
  };
  return (
    <DateField
      label={m.complianceExpiryLabel()}
      description={m.complianceExpiryHelp()}
      value={value}
      onChange={onChange}
      error={error}
      rightSectionPointerEvents="all"
      rightSection={
        <span className={classes.picker}>
          <ActionIcon
            variant="subtle"
            color="gray"
            onClick={openPicker}
            aria-label={m.complianceChooseDate()}
          >
            <IconCalendar size={18} aria-hidden />
          </ActionIcon>
          {/* The calendar behind the button: out of the tab order and of the reading order, as the
              text field above says the same. */}
          <input
            ref={picker}
            type="date"
            className={classes.pickerInput}
            tabIndex={-1}
            aria-hidden="true"
            min={min}
            value={value}
            onChange={(event) => {
              if (event.currentTarget.value) onChange(event.currentTarget.value);
            }}
          />
        </span>
      }
    />
  );
}
