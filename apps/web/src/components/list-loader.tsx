import { Center, Loader } from '@mantine/core';

/** The spinner a list shows while its first page loads, named for screen readers by `label`. */
export function ListLoader({ label }: { label: string }) {
  return (
    <Center py="xl">
      <Loader role="progressbar" aria-label={label} />
    </Center>
  );
}
