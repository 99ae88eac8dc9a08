import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { UpdatePasswordScreen } from './update-password-screen';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../lib/notify', () => ({ showNotification: notify }));

function renderScreen() {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <UpdatePasswordScreen />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('UpdatePasswordScreen: the second factor of the chosen email', { timeout: 20_000 }, () => {
  beforeEach(() => {
    notify.mockReset();
    sessionStorage.setItem('idToken', 'the-token');
    sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
    sessionStorage.setItem('currentClaim', 'admin');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the email first', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    renderScreen();
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    expect(notify).toHaveBeenCalledWith({ color: 'red', message: 'Enter the email of the account first.' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('resets it after a confirmation and shows the answer', async () => {
    const message =
      'The second factor of dealer@example.in was cleared. They set up a new one at their next sign-in.';
    const fetchMock = vi
      .fn()
      .mockResolvedValue(new Response(JSON.stringify({ data: { message } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    renderScreen();
    await userEvent.type(screen.getByLabelText('Email'), 'dealer@example.in');
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Reset the second factor of dealer@example.in?',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: /^Reset the second factor/ })).getByRole('button', {
        name: 'Reset second factor',
      }),
    );
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/admin/reset-second-factor');
    expect(JSON.parse(init.body)).toEqual({ email: 'dealer@example.in' });
  });

  it('shows a refusal', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ error: 'No account uses this email.', code: 'NOT_FOUND' }), {
          status: 404,
        }),
      ),
    );
    renderScreen();
    await userEvent.type(screen.getByLabelText('Email'), 'nobody@example.in');
    await userEvent.click(screen.getByRole('button', { name: 'Reset second factor' }));
    await userEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: 'Reset second factor' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('No account uses this email.');
  });
});
