import { Alert } from '@mantine/core';

/** A failed load's message in place of what could not be loaded, announced to screen readers. */
export function ErrorAlert({ error }: { error: Error }) {
  return (
    <Alert color="red" role="alert">
      {error.message}
    </Alert>
  );
}
