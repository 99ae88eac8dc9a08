import { Button, Drawer, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './filters-drawer.module.css';
import { m } from '@bmet/shared/paraglide/messages';

/** The filters of a list on a phone, from the bottom of the screen (see filters.tsx). */
export function FiltersDrawer({
  open,
  onClose,
  children,
}: {
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Drawer
      opened={open}
      onClose={onClose}
      position="bottom"
      size="auto"
      title={m.filtersTitle()}
      closeButtonProps={{ 'aria-label': m.filtersClose() }}
    >
      <Stack gap="sm" className={classes.fields}>
        {children}
        <Button onClick={onClose}>{m.filtersShowResults()}</Button>
      </Stack>
    </Drawer>
  );
}
