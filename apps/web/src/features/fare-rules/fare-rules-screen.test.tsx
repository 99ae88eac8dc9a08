import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAR_TYPES, STATES, type Role } from '@bmet/shared/constants';
import type { FareReport, FareRule, StateFareRules } from '@bmet/shared/schemas/fare-rule';
import { RequireAccess } from '../../app/guards';
import { Navigation } from '../../app/navigation';
import { STAFF_ROUTES } from '../../app/routes';
import { createQueryClient } from '../../lib/query-client';
import { SessionProvider } from '../../lib/session-context';
import { FareRulesScreen } from './fare-rules-screen';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../lib/notify', () => ({ showNotification: notify }));

const DEFAULT_RULE: FareRule = {
  notifiedBaseFare: null,
  notifiedPerKm: null,
  maxMultiple: 2,
  minMultiple: 0.5,
  cancellationPercent: 10,
  cancellationCap: 100,
  driverShareOwnVehicle: 80,
  driverShareCompanyVehicle: 60,
  effectiveFrom: null,
};

/** Every state with the guidelines' defaults, Maharashtra's sedan notified since 1 July 2025. */
function allRules(): StateFareRules[] {
  return STATES.map((state) => ({
    state,
    rules: Object.fromEntries(CAR_TYPES.map((type) => [type, DEFAULT_RULE])) as StateFareRules['rules'],
    scheduled: [],
  })).map((entry) =>
    entry.state === 'maharashtra'
      ? {
          ...entry,
          rules: {
            ...entry.rules,
            sedan: {
              ...DEFAULT_RULE,
              notifiedBaseFare: 1250,
              notifiedPerKm: 14.5,
              maxMultiple: 1.5,
              minMultiple: 0.75,
              effectiveFrom: '2025-07-01',
            },
          },
          scheduled: [
            {
              effectiveFrom: '2026-05-01',
              rules: { auto: { ...DEFAULT_RULE, notifiedBaseFare: 30, effectiveFrom: '2026-05-01' } },
            },
          ],
        }
      : entry,
  );
}

const REPORT: FareReport = {
  day: '2026-04-01',
  month: '2026-04',
  rates: [
    {
      state: 'maharashtra',
      carType: 'sedan',
      field: 'basePrice',
      value: 2000,
      rushHour: 1.3,
      allowedMin: 937.5,
      allowedMax: 1442.31,
      source: 'console',
    },
    {
      state: 'maharashtra',
      carType: 'mini',
      field: 'per_km',
      value: 40,
      rushHour: 1,
      allowedMin: 5,
      allowedMax: 30,
      source: 'firebase',
    },
  ],
  commission: [
    {
      driverId: '6f1c1a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
      driverName: 'Anjali Verma',
      state: 'maharashtra',
      month: '2026-04',
      fares: 125000,
      commission: 30000,
      capPercent: 20,
    },
  ],
};

type Answer = { status: number; body: unknown };

/** The screen's API; `save` answers the PUT (by default, the state's entry with the rules sent). */
function mockApi(save?: (body: { effectiveFrom: string; rules: Record<string, FareRule> }) => Answer) {
  const rules = allRules();
  const calls: { route: string; body: unknown }[] = [];
  const json = (body: unknown, code = 200) => new Response(JSON.stringify(body), { status: code });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
      const body = init.body ? JSON.parse(init.body as string) : undefined;
      calls.push({ route, body });
      if (route === 'GET /fare-rules') return json({ data: rules });
      if (route.startsWith('GET /fare-rules/report?')) return json({ data: REPORT });
      if (route === 'PUT /fare-rules/maharashtra') {
        const answer = save?.(body);
        if (answer) return json(answer.body, answer.status);
        const entry = rules.find((candidate) => candidate.state === 'maharashtra')!;
        for (const [type, rule] of Object.entries(body.rules as Record<string, FareRule>)) {
          entry.rules[type as 'sedan'] = { ...rule, effectiveFrom: body.effectiveFrom };
        }
        return json({ data: entry });
      }
      throw new Error(`No answer for ${route}`);
    }),
  );
  return calls;
}

function signIn(role: Role) {
  sessionStorage.setItem('idToken', 'the-token');
  sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
  sessionStorage.setItem('currentClaim', role);
}

function renderScreen(address = '/fare-rules?state=maharashtra') {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter initialEntries={[address]}>
          <FareRulesScreen />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const cellsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((cell) => cell.textContent);

describe('FareRulesScreen', { timeout: 20_000 }, () => {
  beforeEach(() => {
    signIn('admin');
    // 20:00 on 31 March in UTC is already 1 April in India.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-31T20:00:00.000Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('shows the state’s rules in effect today, from when, and those scheduled', async () => {
    mockApi();
    renderScreen();
    const table = await screen.findByRole('table', { name: 'Fare rules of Maharashtra in effect today' });
    expect(await within(table).findByTestId('fare-rule-sedan')).toBeInTheDocument();
    expect(cellsOf(within(table).getByTestId('fare-rule-sedan'))).toEqual([
      'Sedan',
      '₹1,250',
      '₹14.50',
      '×1.5',
      '×0.75',
      '10%',
      '₹100',
      '80%',
      '60%',
      '01/07/2025',
    ]);
    expect(cellsOf(within(table).getByTestId('fare-rule-mini'))).toEqual([
      'Mini',
      'Not notified',
      'Not notified',
      '×2',
      '×0.5',
      '10%',
      '₹100',
      '80%',
      '60%',
      'Default',
    ]);
    const scheduled = screen.getByTestId('scheduled-2026-05-01');
    expect(within(scheduled).getByRole('heading', { name: 'From 01/05/2026' })).toBeInTheDocument();
    const rows = await within(scheduled).findAllByRole('row');
    // The heading row and Auto, the one car type that changes that day.
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent(/^Auto₹30/);
  });

  it('saves only the car types that change, from the day chosen, and shows them', async () => {
    const calls = mockApi();
    renderScreen();
    const sedan = await screen.findByRole('group', { name: 'Sedan' });
    expect(screen.getByLabelText('Effective from')).toHaveValue('01/04/2026');
    const fare = within(sedan).getByLabelText('Notified base fare');
    expect(fare).toHaveValue('1250');
    await userEvent.clear(fare);
    await userEvent.type(fare, '1300');
    await userEvent.click(screen.getByRole('button', { name: 'Save the rules of Maharashtra' }));

    expect(await screen.findByRole('status')).toHaveTextContent(
      'The rules of Maharashtra are saved, in effect from 01/04/2026.',
    );
    expect(calls.find((call) => call.route === 'PUT /fare-rules/maharashtra')?.body).toEqual({
      effectiveFrom: '2026-04-01',
      rules: {
        sedan: {
          notifiedBaseFare: 1300,
          notifiedPerKm: 14.5,
          maxMultiple: 1.5,
          minMultiple: 0.75,
          cancellationPercent: 10,
          cancellationCap: 100,
          driverShareOwnVehicle: 80,
          driverShareCompanyVehicle: 60,
        },
      },
    });
    // The table shows the saved rules once they are read again.
    await waitFor(() => expect(screen.getByTestId('fare-rule-sedan')).toHaveTextContent('₹1,300'));
    expect(screen.getByTestId('fare-rule-sedan')).toHaveTextContent('01/04/2026');
  });

  it('asks for every value of a changed car type, and for a change at all', async () => {
    const calls = mockApi();
    renderScreen();
    const save = await screen.findByRole('button', { name: 'Save the rules of Maharashtra' });
    await userEvent.click(save);
    expect(screen.getByRole('alert')).toHaveTextContent('Change at least one value before saving.');

    const mini = screen.getByRole('group', { name: 'Mini' });
    await userEvent.type(within(mini).getByLabelText('Notified base fare'), '40');
    await userEvent.click(save);
    expect(within(mini).getByLabelText('Notified fare per km')).toHaveAttribute('aria-invalid', 'true');
    expect(within(mini).getByText('Enter a value.')).toBeInTheDocument();
    expect(calls.some((call) => call.route.startsWith('PUT'))).toBe(false);
  });

  it('shows the server’s field errors under their fields, and the others in the message', async () => {
    mockApi(() => ({
      status: 400,
      body: {
        error: 'Some fields are not valid.',
        code: 'VALIDATION',
        fieldErrors: {
          'rules.sedan.minMultiple': ['The lowest multiple cannot be above the highest.'],
          effectiveFrom: ['Enter a real date (YYYY-MM-DD).'],
          rules: ['Send the rules of at least one car type.'],
        },
      },
    }));
    renderScreen();
    const sedan = await screen.findByRole('group', { name: 'Sedan' });
    const lowest = within(sedan).getByLabelText('Lowest multiple');
    await userEvent.clear(lowest);
    await userEvent.type(lowest, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Save the rules of Maharashtra' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The rules could not be saved.');
    expect(alert).toHaveTextContent('Some fields are not valid.');
    expect(within(alert).getByRole('listitem')).toHaveTextContent('Send the rules of at least one car type.');
    expect(lowest).toHaveAttribute('aria-invalid', 'true');
    expect(within(sedan).getByText('The lowest multiple cannot be above the highest.')).toBeInTheDocument();
    expect(screen.getByText('Enter a real date (YYYY-MM-DD).')).toBeInTheDocument();
    // Changing the field clears its error.
    await userEvent.type(lowest, '0');
    expect(lowest).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('loads rules scheduled for later into the form', async () => {
    mockApi();
    renderScreen();
    await userEvent.click(await screen.findByRole('button', { name: 'Change the rules from 01/05/2026' }));
    expect(await screen.findByLabelText('Effective from')).toHaveValue('01/05/2026');
    const auto = screen.getByRole('group', { name: 'Auto' });
    expect(within(auto).getByLabelText('Notified base fare')).toHaveValue('30');
    expect(
      within(screen.getByRole('group', { name: 'Sedan' })).getByLabelText('Notified base fare'),
    ).toHaveValue('1250');
  });

  it('reports this month in India: rates outside the band and commission above the cap', async () => {
    const calls = mockApi();
    renderScreen('/fare-rules');
    expect(screen.getByLabelText('State')).toHaveValue('');
    expect(screen.queryByRole('group', { name: 'Sedan' })).not.toBeInTheDocument();

    const rates = await screen.findByRole('table', { name: 'Rates outside the fare band' });
    expect(calls.some((call) => call.route === 'GET /fare-rules/report?month=2026-04')).toBe(true);
    expect(screen.getByLabelText('Month')).toHaveValue('2026-04');
    // The header row comes first: wait for the rows of the report itself.
    await waitFor(() => expect(within(rates).getAllByRole('row').length).toBeGreaterThanOrEqual(3));
    const rows = within(rates).getAllByRole('row');
    expect(cellsOf(rows[1]!)).toEqual([
      'Maharashtra',
      'Sedan',
      'Base price',
      '₹2,000×1.3 at rush hour',
      '₹937.50 to ₹1,442.31',
      'Console',
    ]);
    expect(cellsOf(rows[2]!)).toEqual(['Maharashtra', 'Mini', 'Per km', '₹40', '₹5 to ₹30', 'Firebase']);

    const commission = screen.getByRole('table', { name: 'Commission above the cap' });
    await waitFor(() => expect(within(commission).getAllByRole('row').length).toBeGreaterThan(1));
    const [, row] = within(commission).getAllByRole('row');
    expect(cellsOf(row!)).toEqual([
      'Anjali Verma',
      'Maharashtra',
      'April 2026',
      '₹1,25,000',
      '₹30,000' + '24% of fares',
      '20%',
    ]);
    expect(within(row!).getByRole('link', { name: 'Anjali Verma' })).toHaveAttribute(
      'href',
      '/drivers/6f1c1a2e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
    );
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Month'), '2026-02');
    await vi.waitFor(() =>
      expect(calls.some((call) => call.route === 'GET /fare-rules/report?month=2026-02')).toBe(true),
    );
  });
});

describe('fare rules for other roles', () => {
  function renderNavigation(role: Role) {
    const { unmount } = render(
      <MantineProvider>
        <MemoryRouter>
          <Navigation role={role} opened onNavigate={() => {}} onLogout={() => {}} />
        </MemoryRouter>
      </MantineProvider>,
    );
    return { nav: screen.getByRole('navigation', { name: 'Main navigation' }), unmount };
  }

  it('are in the navigation of admins only', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"data":{}}')),
    );
    const admin = renderNavigation('admin');
    expect(within(admin.nav).getByRole('link', { name: 'Fare rules' })).toHaveAttribute(
      'href',
      '/fare-rules',
    );
    admin.unmount();
    for (const role of ['city_dealer', 'franchise'] as const) {
      const { nav, unmount } = renderNavigation(role);
      expect(within(nav).getByRole('link', { name: 'Drivers' })).toBeInTheDocument();
      expect(within(nav).queryByRole('link', { name: 'Fare rules' })).not.toBeInTheDocument();
      unmount();
    }
    vi.unstubAllGlobals();
  });

  it('refuses their address to a city dealer and a franchise', () => {
    const route = STAFF_ROUTES.find((r) => r.path === '/fare-rules')!;
    for (const role of ['city_dealer', 'franchise'] as const) {
      signIn(role);
      const { unmount } = render(
        <MantineProvider>
          <SessionProvider>
            <MemoryRouter>
              <RequireAccess permission={route.permission}>
                <p>the screen</p>
              </RequireAccess>
            </MemoryRouter>
          </SessionProvider>
        </MantineProvider>,
      );
      expect(screen.getByText('You do not have access to this page.')).toBeInTheDocument();
      expect(screen.queryByText('the screen')).not.toBeInTheDocument();
      unmount();
    }
  });
});
