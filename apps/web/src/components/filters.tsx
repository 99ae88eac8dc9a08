import { Button, Group } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';
import { lazy, useState, type ReactNode } from 'react';
import { OnDemand } from './on-demand';
import { m } from '@bmet/shared/paraglide/messages';

const FiltersDrawer = lazy(() => import('./filters-drawer').then((m) => ({ default: m.FiltersDrawer })));

/**
 * A list's filters: in a row where there is room; on a phone folded behind a Filters button (with
 * how many are in use) that opens them in a drawer from the bottom.
 */
export function Filters({ active, children }: { active: number; children: ReactNode }) {
  const phone = useMediaQuery('(max-width: 599.98px)', false, { getInitialValueInEffect: false });
  const [open, setOpen] = useState(false);
  if (!phone) {
    return (
      <Group align="end" gap="sm" wrap="wrap">
        {children}
      </Group>
    );
  }
  return (
    <>
      <Button
        variant="default"
        leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden />}
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
      >
        {active > 0 ? m.filtersWithCount({ count: active }) : m.filtersTitle()}
      </Button>
      <OnDemand open={open}>
        <FiltersDrawer open={open} onClose={() => setOpen(false)}>
          {children}
        </FiltersDrawer>
      </OnDemand>
    </>
  );
}
