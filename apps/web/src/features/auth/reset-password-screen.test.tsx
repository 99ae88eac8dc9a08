import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageProvider } from '../../lib/language';
import { createQueryClient } from '../../lib/query-client';
import { SessionProvider } from '../../lib/session-context';
import { ResetPasswordScreen } from './reset-password-screen';

function renderReset() {
  const router = createMemoryRouter(
    [
      { path: '/reset-password', element: <ResetPasswordScreen /> },
      { path: '/welcome', element: <p>welcome page</p> },
      { path: '/admin', element: <p>sign-in page</p> },
    ],
    { initialEntries: ['/reset-password?token=abc'] },
  );
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <SessionProvider>
          <LanguageProvider>
            <RouterProvider router={router} />
          </LanguageProvider>
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });

async function saveNewPassword() {
  await userEvent.type(screen.getByLabelText('New password'), 'a-new-passphrase');
  await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a-new-passphrase');
  await userEvent.click(screen.getByRole('button', { name: 'Save the new password' }));
}

describe('ResetPasswordScreen with a second factor', { timeout: 20_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('continues with the second step after the new password, then signs in', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(
        json({ data: { secondFactor: { challenge: 'c-2', methods: ['totp', 'recovery'] } } }),
      )
      .mockResolvedValueOnce(
        json({
          data: { idToken: 'tok', expirationTime: Date.now() + 3_600_000, role: 'admin', language: 'en' },
        }),
      );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderReset();
    await saveNewPassword();
    expect(await screen.findByRole('heading', { name: 'Confirm it is you' })).toBeInTheDocument();
    expect(
      screen.getByText('Your new password is saved. To finish signing in, use your second factor.'),
    ).toBeInTheDocument();
    expect(sessionStorage.getItem('idToken')).toBeNull();

    await userEvent.type(screen.getByLabelText(/^Code from the authenticator app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/welcome');
    expect(fetchMock.mock.calls[1]![0]).toBe('/api/auth/sign-in/second-factor');
    expect(JSON.parse(fetchMock.mock.calls[1]![1].body)).toEqual({
      challenge: 'c-2',
      code: '123456',
      remember: false,
    });
  });

  it('says the sign-in expired and leads back to the sign-in screen', async () => {
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(json({ data: { secondFactor: { challenge: 'c-2', methods: ['recovery'] } } }))
        .mockResolvedValueOnce(
          json({ error: 'This sign-in has expired. Sign in again.', code: 'UNAUTHORIZED' }, 401),
        ),
    );
    renderReset();
    await saveNewPassword();
    await userEvent.type(await screen.findByLabelText(/^Recovery code/), 'abcde-fghjk');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired. Sign in again.');
    await userEvent.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });
});
