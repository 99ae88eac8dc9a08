import { Alert } from '@mantine/core';

/** Shown on a screen whose content is not available in this version of the console. */
export function NotBuiltYet() {
  return (
    <Alert color="gray" variant="light" title="Not available yet">
      This screen is part of the console but its content is not available in this version.
    </Alert>
  );
}
