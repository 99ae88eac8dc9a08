import { Center, Loader } from '@mantine/core';

/** The spec's full-page loading spinner. */
export function FullPageSpinner() {
  return (
    <Center h="100dvh" role="status" aria-label="Loading">
      <Loader size="lg" />
    </Center>
  );
}
