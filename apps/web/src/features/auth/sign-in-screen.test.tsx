import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LanguageProvider } from '../../lib/language';
import { SessionProvider } from '../../lib/session-context';
import { SignInScreen } from './sign-in-screen';

function renderSignIn() {
  const router = createMemoryRouter(
    [
      { path: '/admin', element: <SignInScreen /> },
      { path: '/welcome', element: <p>welcome page</p> },
      { path: '/reset-password-admin', element: <p>reset page</p> },
    ],
    { initialEntries: ['/admin'] },
  );
  render(
    <MantineProvider>
      <SessionProvider>
        <LanguageProvider>
          <RouterProvider router={router} />
        </LanguageProvider>
      </SessionProvider>
    </MantineProvider>,
  );
  return router;
}

describe('SignInScreen', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the role heading per tab and the reset link on the Admin tab only', async () => {
    renderSignIn();
    expect(screen.getByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(screen.getByText('Forgot Password? Click to reset')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'City Dealer' }));
    expect(screen.getByRole('heading', { name: 'City Dealer Sign In' })).toBeInTheDocument();
    expect(screen.queryByText('Forgot Password? Click to reset')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Franchise' }));
    expect(screen.getByRole('heading', { name: 'Franchise Sign In' })).toBeInTheDocument();
  });

  it('sends the chosen tab as the role, saves the session and goes to /welcome', async () => {
    const fetchMock = vi.fn().mockResolvedValue(
      new Response(
        JSON.stringify({
          data: { idToken: 'tok', expirationTime: Date.now() + 3_600_000, role: 'city_dealer' },
        }),
        {
          status: 200,
        },
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const router = renderSignIn();
    await userEvent.click(screen.getByRole('tab', { name: 'City Dealer' }));
    await userEvent.type(screen.getByLabelText(/^Email/), 'dealer@example.in');
    await userEvent.type(screen.getByLabelText(/^Password/), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(JSON.parse(fetchMock.mock.calls[0]![1].body)).toEqual({
      email: 'dealer@example.in',
      password: 'secret-password',
      role: 'city_dealer',
    });
    expect(sessionStorage.getItem('currentClaim')).toBe('city_dealer');
    expect(router.state.location.pathname).toBe('/welcome');
  });

  it('shows the server message on failure and stays', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(
        new Response(JSON.stringify({ error: 'Incorrect email or password.', code: 'UNAUTHORIZED' }), {
          status: 401,
        }),
      ),
    );
    const router = renderSignIn();
    await userEvent.type(screen.getByLabelText(/^Email/), 'a@b.in');
    await userEvent.type(screen.getByLabelText(/^Password/), 'nope-nope');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    expect(router.state.location.pathname).toBe('/admin');
    expect(sessionStorage.getItem('idToken')).toBeNull();
  });

  it('ignores the answer of a sign-in made before another tab was chosen', async () => {
    let answer!: (response: Response) => void;
    vi.stubGlobal('fetch', vi.fn().mockReturnValue(new Promise<Response>((resolve) => (answer = resolve))));
    const router = renderSignIn();
    await userEvent.type(screen.getByLabelText(/^Email/), 'a@b.in');
    await userEvent.type(screen.getByLabelText(/^Password/), 'right-password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await userEvent.click(screen.getByRole('tab', { name: 'Franchise' }));
    answer(
      new Response(
        JSON.stringify({ data: { idToken: 'tok', expirationTime: Date.now() + 3_600_000, role: 'admin' } }),
        { status: 200 },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/admin');
    expect(sessionStorage.getItem('idToken')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Franchise Sign In' })).toBeInTheDocument();
  });
});
