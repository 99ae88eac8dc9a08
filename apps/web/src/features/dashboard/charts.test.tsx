import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { BusiestHoursChart, CarTypesChart, FranchisesChart, StatesChart, TripsPerDayChart } from './charts';

const period = { from: '2026-11-18', to: '2026-11-24' };

/** Where a click took the browser. */
function Address() {
  const location = useLocation();
  return <output data-testid="address">{`${location.pathname}${location.search}`}</output>;
}

function show(chart: ReactNode) {
  render(
    <MantineProvider>
      <MemoryRouter initialEntries={['/dashboard']}>
        <Routes>
          <Route path="*" element={chart} />
        </Routes>
        <Address />
      </MemoryRouter>
    </MantineProvider>,
  );
}

const address = () => screen.getByTestId('address').textContent;
const zero = { requested: 0, assigned: 0, started: 0, completed: 0, cancelled: 0 };

describe('TripsPerDayChart', () => {
  const days = [
    { day: '2026-11-23', ...zero, completed: 1200, cancelled: 34 },
    { day: '2026-11-24', ...zero, requested: 2, completed: 5 },
  ];

  it('is an image named by its title, with its numbers as a table on demand', async () => {
    show(<TripsPerDayChart days={days} />);
    expect(screen.getByRole('img', { name: /^Trips per day: chart/ })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    const toggle = screen.getByRole('button', { name: 'Show the numbers' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Hide the numbers' })).toHaveAttribute('aria-expanded', 'true');

    const table = screen.getByRole('table', { name: 'Trips per day' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Day', 'Requested', 'Assigned', 'Started', 'Completed', 'Cancelled', 'Total']);
    const [, first, second] = within(table).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['23/11/2026', '0', '0', '0', '1,200', '34', '1,234']);
    expect(within(second!).getByRole('link', { name: '24/11/2026' })).toHaveAttribute(
      'href',
      '/trips?from=2026-11-24&to=2026-11-24',
    );
    // A count links to the trips of that day and status; an empty one links nowhere.
    expect(within(first!).getByRole('link', { name: '34' })).toHaveAttribute(
      'href',
      '/trips?from=2026-11-23&to=2026-11-23&status=cancelled',
    );
    expect(within(first!).queryByRole('link', { name: '0' })).not.toBeInTheDocument();
  });

  it('opens the trips of a day and status from a click on its bar', async () => {
    show(<TripsPerDayChart days={days} />);
    await userEvent.click(screen.getByTestId('day-2026-11-24-requested'));
    expect(address()).toBe('/trips?from=2026-11-24&to=2026-11-24&status=requested');
  });

  it('says so when the period has no trips, without a chart', () => {
    show(<TripsPerDayChart days={[{ day: '2026-11-24', ...zero }]} />);
    expect(screen.getByText('No trips in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });
});

describe('BusiestHoursChart', () => {
  const hours = Array.from({ length: 24 }, (_, hour) => ({
    hour,
    trips: hour === 18 ? 4321 : hour === 9 ? 7 : 0,
  }));

  it('tables every hour of the day on the 12-hour clock', async () => {
    show(<BusiestHoursChart hours={hours} period={period} />);
    await userEvent.click(screen.getByRole('button', { name: 'Show the numbers' }));
    const rows = within(screen.getByRole('table', { name: 'Busiest hours' })).getAllByRole('row');
    expect(rows).toHaveLength(25);
    expect(
      within(rows[19]!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['6 pm to 7 pm', '4,321']);
    expect(within(rows[19]!).getByRole('link')).toHaveAttribute(
      'href',
      '/trips?from=2026-11-18&to=2026-11-24&hour=18',
    );
  });

  it('opens the trips of an hour from its bar', async () => {
    show(<BusiestHoursChart hours={hours} period={period} />);
    await userEvent.click(screen.getByTestId('hour-9'));
    expect(address()).toBe('/trips?from=2026-11-18&to=2026-11-24&hour=9');
  });
});

describe('CarTypesChart', () => {
  it('tables revenue in rupees with Indian grouping, and links to the completed trips of a type', async () => {
    show(
      <CarTypesChart
        period={period}
        rows={[
          { carType: 'sedan', trips: 1500, completed: 1200, revenue: 1234567.5 },
          { carType: null, trips: 3, completed: 1, revenue: 90 },
        ]}
      />,
    );
    expect(screen.getByText('1,500 trips · ₹12,34,567.50')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Show the numbers' }));
    const table = screen.getByRole('table', { name: 'Revenue by car type' });
    const [, sedan, unknown] = within(table).getAllByRole('row');
    expect(
      within(sedan!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Sedan', '1,500', '1,200', '₹12,34,567.50']);
    expect(within(sedan!).getByRole('link', { name: 'Sedan' })).toHaveAttribute(
      'href',
      '/trips?from=2026-11-18&to=2026-11-24&carType=sedan&status=completed',
    );
    // Trips without a car type cannot be listed by it: no link.
    expect(within(unknown!).queryByRole('link')).not.toBeInTheDocument();
    expect(within(unknown!).getAllByRole('cell')[0]).toHaveTextContent('Car type not known');
  });
});

describe('FranchisesChart and StatesChart', () => {
  it('link a franchise to its trips by id, name the trips of no franchise and sum the others', async () => {
    show(
      <FranchisesChart
        period={period}
        data={{
          rows: [
            {
              franchiseId: '7d8e1f7a-1111-4c2b-9a1e-0a0b0c0d0e0f',
              name: 'Pune EV Cabs',
              trips: 10,
              completed: 8,
              revenue: 2000,
            },
            { franchiseId: null, name: null, trips: 1, completed: 0, revenue: 0 },
          ],
          others: { groups: 3, trips: 5, completed: 5, revenue: 500 },
        }}
      />,
    );
    expect(screen.getByText('1 trip · ₹0')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('bar-7d8e1f7a-1111-4c2b-9a1e-0a0b0c0d0e0f'));
    expect(address()).toBe(
      '/trips?from=2026-11-18&to=2026-11-24&franchiseId=7d8e1f7a-1111-4c2b-9a1e-0a0b0c0d0e0f&franchiseName=Pune+EV+Cabs',
    );
  });

  it('name states in the current language and table them', async () => {
    show(
      <StatesChart
        period={period}
        data={{ rows: [{ state: 'tamil nadu', trips: 2, completed: 1, revenue: 150 }], others: null }}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Show the numbers' }));
    const table = screen.getByRole('table', { name: 'Trips and revenue by state' });
    expect(within(table).getByRole('link', { name: 'Tamil Nadu' })).toHaveAttribute(
      'href',
      '/trips?from=2026-11-18&to=2026-11-24&state=tamil+nadu',
    );
  });
});
