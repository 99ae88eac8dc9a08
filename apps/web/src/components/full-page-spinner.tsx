import { Center, Loader } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

/** The spec's full-page loading spinner. */
export function FullPageSpinner() {
  return (
    <Center h="100dvh" role="status" aria-label={m.commonLoading()}>
      <Loader size="lg" />
    </Center>
  );
}
