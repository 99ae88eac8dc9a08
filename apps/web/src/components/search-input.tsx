import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

/** A list screen's search box: named for screen readers by `label`, full width on phones. */
export function SearchInput({
  label,
  placeholder,
  value,
  onChange,
  width,
}: {
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  width: number;
}) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      leftSection={<IconSearch size={16} />}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      w={{ base: '100%', sm: width }}
    />
  );
}
