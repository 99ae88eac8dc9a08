import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Role } from '@bmet/shared/constants';
import type { FirebaseLinkStatus } from '@bmet/shared/schemas/firebase-link';
import { RequireAccess } from '../../app/guards';
import { Navigation } from '../../app/navigation';
import { STAFF_ROUTES } from '../../app/routes';
import { createQueryClient } from '../../lib/query-client';
import { SessionProvider } from '../../lib/session-context';
import { FirebaseLinkScreen } from './firebase-link-screen';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../lib/notify', () => ({ showNotification: notify }));

/** A link followed and connected, with nothing to report yet. */
function linkStatus(changes: Partial<FirebaseLinkStatus> = {}): FirebaseLinkStatus {
  return {
    following: true,
    holder: 'console-2 4242 9f8e7d6c',
    writeBack: false,
    connectedSince: '2026-03-01T04:30:00.000Z',
    lastEventAt: null,
    eventsPerMinute: 0,
    lagSeconds: null,
    applied: {},
    positions: 0,
    skipped: 0,
    reconnects: 0,
    rereading: null,
    buildingIndexes: false,
    rereadsAsked: [],
    outbox: { waiting: 0, oldestWaitingAt: null, failing: 0, lastError: null },
    lastErrors: [],
    ...changes,
  };
}

type Answer = { status: number; body: unknown };

/** The link's API over a status the calls change as the server would; `reread` answers the POST. */
function mockApi(start: FirebaseLinkStatus | null, reread?: (kind: string) => Answer) {
  let status = start;
  const calls: { route: string; body: unknown }[] = [];
  const json = (body: unknown, code = 200) => new Response(JSON.stringify(body), { status: code });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
      const body = init.body ? (JSON.parse(init.body as string) as { kind: string }) : undefined;
      calls.push({ route, body });
      switch (route) {
        case 'GET /firebase-link':
          return json({ data: status });
        case 'POST /firebase-link/reread': {
          const answer = reread?.(body!.kind) ?? { status: 202, body: undefined };
          if (answer.status === 202 && status) {
            status = { ...status, rereadsAsked: [...status.rereadsAsked, body!.kind as 'driver'] };
            return json({ data: status }, 202);
          }
          return json(answer.body, answer.status);
        }
        case 'GET /compliance/summary':
          return json({ data: { expired: 0, within1: 0, within7: 0, within30: 0, awaitingReview: 0 } });
        default:
          throw new Error(`No answer for ${route}`);
      }
    }),
  );
  return calls;
}

function signIn(role: Role) {
  sessionStorage.setItem('idToken', 'the-token');
  sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
  sessionStorage.setItem('currentClaim', role);
}

function renderScreen() {
  return render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <FirebaseLinkScreen />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const section = (name: string) => screen.getByRole('region', { name });
const figure = (testId: string) => screen.getByTestId(`${testId}-value`);

describe('FirebaseLinkScreen', { timeout: 20_000 }, () => {
  beforeEach(() => {
    notify.mockReset();
    signIn('admin');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('explains that the link is off and how to turn it on', async () => {
    mockApi(null);
    renderScreen();
    expect(await screen.findByText('The link is off')).toBeInTheDocument();
    const off = screen.getByTestId('firebase-link-off');
    expect(off).toHaveTextContent(
      "To turn it on, set FIREBASE_DATABASE_URL to the database's address and restart the console.",
    );
    expect(off).toHaveTextContent('“Living beside the apps: the Firebase link”');
    expect(screen.queryByRole('button', { name: 'Read again' })).not.toBeInTheDocument();
  });

  it('shows the connection, its figures and the counts per kind', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-01T10:00:12.000Z'));
    const calls = mockApi(
      linkStatus({
        lastEventAt: '2026-03-01T10:00:00.000Z',
        eventsPerMinute: 1250,
        lagSeconds: 0.42,
        applied: { trips: 125000, drivers: 3, ratings: 5, newKind: 2 },
        positions: 840,
        reconnects: 2,
        skipped: 1,
      }),
    );
    renderScreen();
    const connection = await screen.findByRole('region', { name: 'Connection' });
    expect(within(connection).getByText('Connected')).toBeInTheDocument();
    // 04:30 UTC is 10:00 am in India.
    expect(within(connection).getByText('Connected since 01/03/2026, 10:00 am')).toBeInTheDocument();
    expect(within(connection).getByText('Server following it: console-2, process 4242')).toBeInTheDocument();
    expect(within(connection).getByTestId('firebase-link-write-back')).toHaveTextContent('Off: read only');
    expect(
      within(connection).getByText(/^The console reads the apps' database and never writes/),
    ).toBeVisible();

    expect(figure('figure-last-change')).toHaveTextContent('12 s ago');
    expect(figure('figure-changes-per-minute')).toHaveTextContent('1,250');
    expect(figure('figure-delay')).toHaveTextContent('0.4 s');
    expect(figure('figure-positions')).toHaveTextContent('840');
    expect(figure('figure-reconnects')).toHaveTextContent('2');
    expect(figure('figure-skipped')).toHaveTextContent('1');

    const applied = within(section('Records applied, by kind')).getByTestId('firebase-link-applied');
    const rows = [...applied.querySelectorAll('dt')].map(
      (dt) => `${dt.textContent} ${dt.nextSibling?.textContent}`,
    );
    expect(rows).toEqual([
      'Rates 0',
      'City dealers 0',
      'Franchises 0',
      'Drivers 3',
      'Customers 0',
      'Trips 1,25,000',
      'Ratings 5',
      'newKind 2',
    ]);
    expect(
      within(section('Changes waiting for Firebase')).getByText(
        'Writing to Firebase is off, so nothing is sent.',
      ),
    ).toBeVisible();
    expect(within(section('Last errors')).getByText('No errors.')).toBeVisible();

    // The age moves on by itself, and the status is asked again every 5 s.
    const asked = () => calls.filter((call) => call.route === 'GET /firebase-link').length;
    expect(asked()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(figure('figure-last-change')).toHaveTextContent('17 s ago');
    await vi.waitFor(() => expect(asked()).toBe(2));
  });

  it('says while the indexes a first sync left out are built, and not once they are', async () => {
    mockApi(linkStatus({ buildingIndexes: true }));
    const { unmount } = renderScreen();
    const connection = await screen.findByRole('region', { name: 'Connection' });
    expect(
      within(connection).getByText(
        "Building the trips' indexes left out while the first sync filled the console: searching and sorting trips is slow until it ends.",
      ),
    ).toBeVisible();
    unmount();
    mockApi(linkStatus());
    renderScreen();
    await screen.findByRole('region', { name: 'Connection' });
    expect(screen.queryByTestId('firebase-link-building-indexes')).not.toBeInTheDocument();
  });

  it('says when no server follows the database, and still lists the last errors', async () => {
    mockApi(
      linkStatus({
        following: false,
        holder: null,
        connectedSince: null,
        lastErrors: [
          { at: '2026-03-01T05:00:00.000Z', message: 'stream cut: 401 Unauthorized' },
          { at: '2026-03-01T04:59:00.000Z', message: 'unreachable: ECONNREFUSED' },
        ],
      }),
    );
    renderScreen();
    const connection = await screen.findByRole('region', { name: 'Connection' });
    expect(within(connection).getByText('Not connected')).toBeInTheDocument();
    expect(
      within(connection).getByText(/^No console server follows the apps' database right now/),
    ).toBeVisible();
    expect(within(connection).queryByTestId('firebase-link-server')).not.toBeInTheDocument();
    const errors = within(section('Last errors')).getAllByRole('listitem');
    expect(errors.map((item) => item.textContent)).toEqual([
      '01/03/2026, 10:30 amstream cut: 401 Unauthorized',
      '01/03/2026, 10:29 amunreachable: ECONNREFUSED',
    ]);
  });

  it('warns when changes fail to reach Firebase, with the last error', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2026-03-01T10:03:00.000Z'));
    mockApi(
      linkStatus({
        writeBack: true,
        outbox: {
          waiting: 3,
          oldestWaitingAt: '2026-03-01T10:00:00.000Z',
          failing: 2,
          lastError: 'PATCH /state/maharashtra.json: 401 Permission denied',
        },
      }),
    );
    renderScreen();
    const outbox = await screen.findByRole('region', { name: 'Changes waiting for Firebase' });
    expect(within(outbox).getByRole('alert')).toHaveTextContent(
      'Some changes could not be written to Firebase yet. They are tried again by themselves',
    );
    expect(screen.getByTestId('outbox-waiting')).toHaveTextContent('3');
    expect(screen.getByTestId('outbox-oldest')).toHaveTextContent('3 min ago');
    expect(within(outbox).getByText('01/03/2026, 3:30 pm')).toBeInTheDocument();
    expect(screen.getByTestId('outbox-failing')).toHaveTextContent('2');
    expect(screen.getByTestId('outbox-failing')).toHaveAttribute('data-alert');
    expect(within(outbox).getByTestId('outbox-last-error')).toHaveTextContent(
      'PATCH /state/maharashtra.json: 401 Permission denied',
    );
    expect(within(section('Connection')).getByTestId('firebase-link-write-back')).toHaveTextContent('On');
  });

  it('asks to read one kind again, and shows what is asked and what is being read', async () => {
    const calls = mockApi(linkStatus({ rereading: 'trips' }));
    renderScreen();
    const reread = await screen.findByRole('region', { name: 'Read again from Firebase' });
    expect(within(reread).getByText('Re-reading Trips…')).toBeInTheDocument();
    const button = within(reread).getByRole('button', { name: 'Read again' });
    expect(button).toBeDisabled();
    const kinds = within(reread).getByLabelText('What to read again');
    expect([...within(kinds).getAllByRole('option')].map((option) => option.textContent)).toEqual([
      'Choose a kind of record',
      'Rates',
      'City dealers',
      'Franchises',
      'Drivers',
      'Customers',
      'Trips',
    ]);

    await userEvent.selectOptions(kinds, 'Drivers');
    await userEvent.click(button);
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ color: 'teal', message: 'Asked to read Drivers again.' }),
    );
    expect(calls.find((call) => call.route === 'POST /firebase-link/reread')?.body).toEqual({
      kind: 'driver',
    });
    // The answer's status shows the request at once, before the next refresh.
    expect(within(reread).getByText('Asked, starting within a few seconds: Drivers')).toBeInTheDocument();
    expect(within(reread).queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's message when it cannot take the request", async () => {
    const message =
      'No instance follows the Firebase database right now: try again once the link is connected.';
    mockApi(linkStatus({ following: false, connectedSince: null, holder: null }), () => ({
      status: 409,
      body: { error: message, code: 'CONFLICT' },
    }));
    renderScreen();
    const reread = await screen.findByRole('region', { name: 'Read again from Firebase' });
    await userEvent.selectOptions(within(reread).getByLabelText('What to read again'), 'Rates');
    await userEvent.click(within(reread).getByRole('button', { name: 'Read again' }));
    expect(await within(reread).findByRole('alert')).toHaveTextContent(message);
    expect(notify).not.toHaveBeenCalled();
    // Choosing again clears the message.
    await userEvent.selectOptions(within(reread).getByLabelText('What to read again'), 'Trips');
    expect(within(reread).queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the Firebase link for other roles', () => {
  afterEach(() => vi.unstubAllGlobals());

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

  it('is in the navigation of admins only', () => {
    mockApi(null);
    const admin = renderNavigation('admin');
    expect(within(admin.nav).getByRole('link', { name: 'Firebase link' })).toHaveAttribute(
      'href',
      '/firebase-link',
    );
    admin.unmount();
    for (const role of ['city_dealer', 'franchise'] as const) {
      const { nav, unmount } = renderNavigation(role);
      expect(within(nav).getByRole('link', { name: 'Drivers' })).toBeInTheDocument();
      expect(within(nav).queryByRole('link', { name: 'Firebase link' })).not.toBeInTheDocument();
      unmount();
    }
  });

  it('refuses its address to a city dealer and a franchise', () => {
    const route = STAFF_ROUTES.find((r) => r.path === '/firebase-link')!;
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
