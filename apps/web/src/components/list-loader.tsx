import { Center } from '@mantine/core';
import { Spinner } from './spinner';

/** The spinner a list shows while its first page loads, named for screen readers by `label`. */
export function ListLoader({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Spinner label={label} />
    </Center>
  );
}
