import { Button, Drawer, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './filters-drawer.module.css';

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
      title="Filters"
      closeButtonProps={{ 'aria-label': 'Close filters' }}
    >
      <Stack gap="sm" className={classes.fields}>
        {children}
        <Button onClick={onClose}>Show results</Button>
      </Stack>
    </Drawer>
  );
}
