import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { SessionProvider } from '../../lib/session-context';
import { AccountSettingsDialog } from './account-settings-dialog';

type Answer = { status?: number; body: unknown };

/** Answers each `METHOD /path` in turn from its list (the last one again once the list is used up). */
function mockApi(answers: Record<string, Answer[]>) {
  const calls: { route: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const route = `${init.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
    calls.push({ route, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const list = answers[route];
    if (!list) throw new Error(`unexpected ${route}`);
    const answer = list.length > 1 ? list.shift()! : list[0]!;
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const user = (displayName: string) => ({
  body: {
    data: {
      uid: '6d5b1a52-8a4c-4a43-9d5e-0c8b1d2f4e11',
      displayName,
      email: 'franchise@example.in',
      role: 'franchise',
      state: 'goa',
      language: null,
    },
  },
});

function renderDialog() {
  render(
    <MantineProvider>
      <SessionProvider>
        <QueryClientProvider client={createQueryClient()}>
          <AccountSettingsDialog opened onClose={() => undefined} />
        </QueryClientProvider>
      </SessionProvider>
    </MantineProvider>,
  );
}

describe('AccountSettingsDialog', { timeout: 20_000 }, () => {
  beforeEach(() => {
    sessionStorage.setItem('idToken', 'the-token');
    sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
    sessionStorage.setItem('currentClaim', 'franchise');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('saves the display name and loads the signed-in user again', async () => {
    const calls = mockApi({
      'GET /auth/me': [user('Goa Cabs'), user('Goa Coastal Cabs')],
      'PATCH /auth/me/name': [user('Goa Coastal Cabs')],
    });
    renderDialog();
    const name = await screen.findByLabelText('Display name');
    expect(name).toHaveValue('Goa Cabs');
    await userEvent.clear(name);
    await userEvent.type(name, 'Goa Coastal Cabs{Enter}');
    expect(await screen.findByRole('status')).toHaveTextContent('Your display name has been saved.');
    await waitFor(() => expect(calls.filter((call) => call.route === 'GET /auth/me')).toHaveLength(2));
    expect(calls.find((call) => call.route === 'PATCH /auth/me/name')?.body).toEqual({
      displayName: 'Goa Coastal Cabs',
    });
  });

  it('says beside each password field what is wrong, from the browser and from the server', async () => {
    const calls = mockApi({
      'GET /auth/me': [user('Goa Cabs')],
      'POST /auth/me/password': [
        {
          status: 400,
          body: {
            error: 'This password is too common.',
            code: 'VALIDATION',
            fieldErrors: { newPassword: ['This password is too common.'] },
          },
        },
        {
          status: 429,
          body: { error: 'Too many failed sign-in attempts.', code: 'RATE_LIMITED' },
        },
      ],
    });
    renderDialog();
    const current = await screen.findByLabelText('Current password');
    const next = screen.getByLabelText('New password');
    const confirm = screen.getByLabelText('Confirm new password');
    const change = screen.getByRole('button', { name: 'Change password' });

    await userEvent.type(next, 'password123');
    await userEvent.type(confirm, 'password124');
    await userEvent.click(change);
    expect(current).toHaveAccessibleDescription('Enter your current password.');
    expect(confirm).toHaveAccessibleDescription('The two passwords do not match.');
    expect(current).toHaveFocus();
    expect(calls.some((call) => call.route === 'POST /auth/me/password')).toBe(false);

    await userEvent.type(current, 'my-old-passphrase');
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'password123');
    await userEvent.click(change);
    await waitFor(() => expect(next).toHaveAccessibleDescription(/^This password is too common\./));
    expect(next).toHaveFocus();
    expect(calls.at(-1)).toEqual({
      route: 'POST /auth/me/password',
      body: { currentPassword: 'my-old-passphrase', newPassword: 'password123' },
    });

    await userEvent.click(change);
    await waitFor(() => expect(current).toHaveAccessibleDescription('Too many failed sign-in attempts.'));
  });
});
