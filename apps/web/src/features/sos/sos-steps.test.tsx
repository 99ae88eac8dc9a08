import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SosAlert } from '@bmet/shared/schemas/sos';
import type { SosStatus } from '@bmet/shared/sos-rules';
import { createQueryClient } from '../../lib/query-client';
import { SosSteps } from './sos-steps';

const alertIn = (status: SosStatus) => ({ id: '00000000-0000-4000-8000-000000000001', status }) as SosAlert;

function buttonsFor(status: SosStatus): string[] {
  const { unmount } = render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <SosSteps alert={alertIn(status)} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  const names = screen.queryAllByRole('button').map((button) => button.textContent ?? '');
  unmount();
  return names;
}

describe('SosSteps', () => {
  it('shows only the steps the alert allows now', () => {
    expect(buttonsFor('open')).toEqual(['Acknowledge', 'Resolve']);
    expect(buttonsFor('acknowledged')).toEqual(['Escalate', 'Resolve']);
    expect(buttonsFor('escalated')).toEqual(['Escalate', 'Resolve']);
    expect(buttonsFor('resolved')).toEqual([]);
  });
});
