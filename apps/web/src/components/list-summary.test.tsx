import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ListSummary } from './list-summary';

const summary = (props: Partial<Parameters<typeof ListSummary>[0]>) =>
  render(
    <MantineProvider>
      <ListSummary shown={50} total={1234} noun="drivers" query="" empty="No drivers yet." {...props} />
    </MantineProvider>,
  );

describe('ListSummary', () => {
  it('counts with Indian grouping', () => {
    summary({});
    expect(screen.getByText('Showing 50 of 1,234 drivers')).toBeInTheDocument();
  });

  it('says "10,000+" when the server stopped counting', () => {
    summary({ total: 10_000, totalCapped: true });
    expect(screen.getByText('Showing 50 of 10,000+ drivers')).toBeInTheDocument();
  });
});
