import { Alert } from '@mantine/core';
import { m } from '@bmet/shared/paraglide/messages';

/** Shown on a screen whose content is not available in this version of the console. */
export function NotBuiltYet() {
  return (
    <Alert color="gray" variant="light" title={m.commonNotAvailableYet()}>
      {m.commonNotBuiltYet()}
    </Alert>
  );
}
