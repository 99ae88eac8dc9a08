import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { SessionProvider } from '../../lib/session-context';
import { GrievanceForm, receivedMoment } from './grievance-form';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../lib/notify', () => ({ showNotification: notify }));

// Mantine's growing text areas listen for fonts loading, which jsdom does not have.
beforeAll(() => {
  Object.defineProperty(document, 'fonts', {
    configurable: true,
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });
});

const DESCRIBE = 'Describe the complaint.';

/** The API's answer to a POST: refused without a description, logged with one. */
function mockApi() {
  const posted: Record<string, unknown>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      if (url !== '/api/grievances' || init.method !== 'POST') throw new Error(`No answer for ${url}`);
      const body = JSON.parse(init.body as string) as Record<string, unknown>;
      posted.push(body);
      if (!body.description)
        return new Response(
          JSON.stringify({ error: DESCRIBE, code: 'VALIDATION', fieldErrors: { description: [DESCRIBE] } }),
          { status: 400 },
        );
      return new Response(JSON.stringify({ data: { id: 'g-1', number: 'GR-2026-000042' } }), { status: 201 });
    }),
  );
  return posted;
}

function renderForm() {
  const onCreated = vi.fn();
  const onClose = vi.fn();
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <SessionProvider>
          <GrievanceForm tripId={null} driverId={null} onClose={onClose} onCreated={onCreated} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return { onCreated, onClose, dialog: screen.getByRole('dialog', { name: 'Log a grievance' }) };
}

describe('receivedMoment', () => {
  it('reads a date and a time as India’s', () => {
    expect(receivedMoment('2026-11-29', '09:05')).toBe('2026-11-29T09:05:00+05:30');
    expect(Date.parse(receivedMoment('2026-11-29', '09:05')!)).toBe(Date.parse('2026-11-29T03:35:00Z'));
  });

  it('has nothing to send without both', () => {
    expect(receivedMoment('', '09:05')).toBeNull();
    expect(receivedMoment('2026-11-29', '')).toBeNull();
  });
});

describe('GrievanceForm', { timeout: 30_000 }, () => {
  beforeEach(() => {
    notify.mockReset();
    sessionStorage.setItem('idToken', 'the-token');
    sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
    sessionStorage.setItem('currentClaim', 'admin');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('refuses a time received in the future before asking the server', async () => {
    const user = userEvent.setup();
    const posted = mockApi();
    const { dialog } = renderForm();
    const tomorrow = new Date(Date.now() + 330 * 60_000 + 86_400_000).toISOString().slice(0, 10);
    const [year, month, day] = tomorrow.split('-');
    const date = within(dialog).getByLabelText('Date received');
    await user.clear(date);
    await user.type(date, `${day}/${month}/${year}`);
    await user.click(within(dialog).getByRole('button', { name: 'Log grievance' }));
    expect(within(dialog).getByText('The time received cannot be in the future.')).toBeInTheDocument();
    expect(posted).toHaveLength(0);
  });

  it("shows the server's refusal beside its field, then logs the grievance", async () => {
    const user = userEvent.setup();
    const posted = mockApi();
    const { dialog, onCreated, onClose } = renderForm();
    await user.type(within(dialog).getByLabelText(/^Complainant's name/), 'Meera Joshi');
    await user.selectOptions(within(dialog).getByLabelText(/^Category/), 'fare');
    await user.click(within(dialog).getByRole('button', { name: 'Log grievance' }));
    expect(await within(dialog).findByText(DESCRIBE)).toBeInTheDocument();

    await user.type(within(dialog).getByLabelText(/^Description/), 'Charged twice.');
    expect(within(dialog).queryByText(DESCRIBE)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Log grievance' }));
    await vi.waitFor(() => expect(onCreated).toHaveBeenCalledWith({ id: 'g-1', number: 'GR-2026-000042' }));
    expect(onClose).toHaveBeenCalled();
    expect(notify).toHaveBeenCalledWith({ color: 'teal', message: 'Grievance GR-2026-000042 logged.' });
    expect(posted[1]).toMatchObject({
      complainantKind: 'customer',
      complainantName: 'Meera Joshi',
      complainantLanguage: 'en',
      category: 'fare',
      priority: 'normal',
      description: 'Charged twice.',
      tripId: null,
      driverId: null,
    });
    expect(Date.parse(posted[1]!.receivedAt as string)).toBeLessThanOrEqual(Date.now());
  });
});
