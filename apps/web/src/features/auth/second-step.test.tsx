import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LanguageProvider } from '../../lib/language';
import { SessionProvider } from '../../lib/session-context';
import { SignInScreen } from './sign-in-screen';

const webauthn = vi.hoisted(() => ({ startAuthentication: vi.fn(), startRegistration: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);
// jsdom has no canvas for qrcode to draw on: a fixed image stands in.
vi.mock('qrcode', () => ({ toDataURL: vi.fn().mockResolvedValue('data:image/png;base64,AAAA') }));

type Answer = { status?: number; body: unknown };
type Routes = Record<string, Answer | Answer[] | ((body: Record<string, unknown>) => Answer)>;

/** A fetch answering by method and path (`POST /auth/sign-in`); repeated answers are taken in turn. */
function mockApi(routes: Routes) {
  const calls: { route: string; body: Record<string, unknown> }[] = [];
  const fetchMock = vi.fn(async (url: string, init: RequestInit) => {
    const route = `${init.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
    const body = init.body ? (JSON.parse(init.body as string) as Record<string, unknown>) : {};
    calls.push({ route, body });
    const entry = routes[route];
    if (!entry) throw new Error(`No answer for ${route}`);
    const answer = typeof entry === 'function' ? entry(body) : Array.isArray(entry) ? entry.shift()! : entry;
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

const token = (role = 'admin') => ({
  data: { idToken: 'tok', expirationTime: Date.now() + 3_600_000, role, language: null },
});
const step = (methods: string[]) => ({ data: { secondFactor: { challenge: 'chal-1', methods } } });
const wrongCode = {
  status: 401,
  body: {
    error: 'That code is not right. Try the newest code, or a recovery code.',
    code: 'UNAUTHORIZED',
    fieldErrors: { code: ['That code is not right. Try the newest code, or a recovery code.'] },
  },
};
const fakeAssertion = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' },
};

function renderSignIn() {
  const router = createMemoryRouter(
    [
      { path: '/admin', element: <SignInScreen /> },
      { path: '/welcome', element: <p>welcome page</p> },
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

async function typePassword(tab?: string) {
  if (tab) await userEvent.click(screen.getByRole('tab', { name: tab }));
  await userEvent.type(screen.getByLabelText(/^Email/), 'asha@example.in');
  await userEvent.type(screen.getByLabelText(/^Password/), 'right-password');
  await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

// Each test types and clicks through a whole sign-in: seconds each when two workers share the machine.
describe('the second step of the sign-in', { timeout: 20_000 }, () => {
  beforeEach(() => {
    webauthn.startAuthentication.mockReset();
    webauthn.startRegistration.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks for the code after the password; a wrong code stays on the step without ending anything', async () => {
    const calls = mockApi({
      'POST /auth/sign-in': { body: step(['totp', 'recovery']) },
      'POST /auth/sign-in/second-factor': [wrongCode, { body: token() }],
    });
    // A 401 that ended a session would clear session storage (lib/api-client.ts).
    sessionStorage.setItem('marker', 'kept');
    const router = renderSignIn();
    await typePassword();

    expect(await screen.findByRole('heading', { name: 'Confirm it is you' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Admin Sign In' })).toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();

    const code = screen.getByLabelText(/^Code from the authenticator app/);
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('Enter the 6-digit code from your authenticator app.'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    await userEvent.type(code, '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(
      await screen.findByText('That code is not right. Try the newest code, or a recovery code.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(sessionStorage.getItem('marker')).toBe('kept');

    await userEvent.type(screen.getByLabelText(/^Code from the authenticator app/), '654321');
    await userEvent.click(screen.getByRole('checkbox', { name: /Remember this browser for 30 days/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(calls.map((call) => call.route)).toEqual([
      'POST /auth/sign-in',
      'POST /auth/sign-in/second-factor',
      'POST /auth/sign-in/second-factor',
      // The language in use becomes the account's, as after any sign-in.
      'PUT /auth/me/language',
    ]);
    expect(calls[1]!.body).toEqual({ challenge: 'chal-1', code: '123456', remember: false });
    expect(calls[2]!.body).toEqual({ challenge: 'chal-1', code: '654321', remember: true });
    expect(sessionStorage.getItem('idToken')).toBe('tok');
  });

  it('takes a recovery code instead', async () => {
    const calls = mockApi({
      'POST /auth/sign-in': { body: step(['totp', 'recovery']) },
      'POST /auth/sign-in/second-factor': { body: token() },
    });
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a recovery code instead' }));
    await userEvent.type(screen.getByLabelText(/^Recovery code/), 'abcde-fghjk');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(calls[1]!.body).toEqual({ challenge: 'chal-1', recoveryCode: 'abcde-fghjk', remember: false });
  });

  it('goes back to the password with the message when the sign-in expired', async () => {
    mockApi({
      'POST /auth/sign-in': { body: step(['totp']) },
      'POST /auth/sign-in/second-factor': {
        status: 401,
        body: { error: 'This sign-in has expired. Sign in again.', code: 'UNAUTHORIZED' },
      },
    });
    renderSignIn();
    await typePassword('City Dealer');
    await userEvent.type(await screen.findByLabelText(/^Code from the authenticator app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired. Sign in again.');
    expect(screen.getByRole('heading', { name: 'City Dealer Sign In' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Password/)).toHaveValue('');
    expect(screen.getByLabelText(/^Email/)).toHaveValue('asha@example.in');
  });

  it('proves the second step with a passkey', async () => {
    const calls = mockApi({
      'POST /auth/sign-in': { body: step(['totp', 'passkey', 'recovery']) },
      'POST /auth/passkey/options': { body: { data: { challenge: 'chal-1', options: { challenge: 'w' } } } },
      'POST /auth/sign-in/second-factor': { body: token() },
    });
    webauthn.startAuthentication.mockResolvedValue(fakeAssertion);
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(calls[1]).toEqual({ route: 'POST /auth/passkey/options', body: { challenge: 'chal-1' } });
    expect(webauthn.startAuthentication).toHaveBeenCalledWith({ optionsJSON: { challenge: 'w' } });
    expect(calls[2]!.body).toEqual({ challenge: 'chal-1', passkey: fakeAssertion, remember: false });
  });

  it('says so when the passkey prompt is closed, and offers the recovery code', async () => {
    mockApi({
      'POST /auth/sign-in': { body: step(['passkey', 'recovery']) },
      'POST /auth/passkey/options': { body: { data: { challenge: 'chal-1', options: {} } } },
    });
    webauthn.startAuthentication.mockRejectedValue(
      Object.assign(new Error('The operation either timed out or was not allowed.'), {
        name: 'NotAllowedError',
      }),
    );
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The passkey request was cancelled or timed out.',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code instead' }));
    expect(screen.getByLabelText(/^Recovery code/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(screen.getByRole('button', { name: 'Use a passkey' })).toBeInTheDocument();
  });

  it('sets up an authenticator app when the role requires one, shows the recovery codes, then signs in', async () => {
    const calls = mockApi({
      'POST /auth/sign-in': { body: step(['enrol']) },
      'POST /auth/second-factor/totp': {
        body: { data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' } },
      },
      'POST /auth/second-factor/totp/confirm': {
        body: { data: { recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'], signIn: token('franchise').data } },
      },
    });
    const router = renderSignIn();
    await typePassword('Franchise');
    expect(await screen.findByRole('heading', { name: 'Set up a second factor' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(await screen.findByAltText('QR code to scan with an authenticator app')).toHaveAttribute(
      'src',
      'data:image/png;base64,AAAA',
    );
    await userEvent.type(screen.getByLabelText(/^Code from the authenticator app/), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on' }));

    expect(await screen.findByText('aaaaa-bbbbb')).toBeInTheDocument();
    expect(screen.getByText('ccccc-ddddd')).toBeInTheDocument();
    // Not signed in until the codes are saved: the session would take the user away from them.
    expect(sessionStorage.getItem('idToken')).toBeNull();
    expect(calls[1]).toEqual({ route: 'POST /auth/second-factor/totp', body: { challenge: 'chal-1' } });
    expect(calls[2]!.body).toEqual({ code: '123456', challenge: 'chal-1', remember: false });

    await userEvent.click(screen.getByRole('button', { name: 'I have saved the codes' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(sessionStorage.getItem('currentClaim')).toBe('franchise');
    expect(router.state.location.pathname).toBe('/welcome');
  });

  it('sets up a passkey when the role requires a second factor', async () => {
    const calls = mockApi({
      'POST /auth/sign-in': { body: step(['enrol']) },
      'POST /auth/second-factor/passkeys/options': {
        body: { data: { challenge: 'chal-1', options: { challenge: 'r' } } },
      },
      'POST /auth/second-factor/passkeys': {
        body: { data: { recoveryCodes: ['aaaaa-bbbbb'], signIn: token().data } },
      },
    });
    const attestation = { id: 'n', rawId: 'n', type: 'public-key', response: {}, clientExtensionResults: {} };
    webauthn.startRegistration.mockResolvedValue(attestation);
    renderSignIn();
    await typePassword();
    await userEvent.click(await screen.findByRole('checkbox', { name: /Remember this browser/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I have saved the codes' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(webauthn.startRegistration).toHaveBeenCalledWith({ optionsJSON: { challenge: 'r' } });
    expect(calls[2]!.body).toEqual({ challenge: 'chal-1', passkey: attestation, remember: true });
  });
});

describe('sign-in with a passkey alone', { timeout: 20_000 }, () => {
  beforeEach(() => {
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    webauthn.startAuthentication.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('asks the browser for a passkey and signs in on the chosen tab', async () => {
    const calls = mockApi({
      'POST /auth/passkey/options': { body: { data: { challenge: 'pk-1', options: { challenge: 'w' } } } },
      'POST /auth/sign-in/passkey': { body: token('city_dealer') },
    });
    webauthn.startAuthentication.mockResolvedValue(fakeAssertion);
    renderSignIn();
    await userEvent.click(screen.getByRole('tab', { name: 'City Dealer' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText('welcome page')).toBeInTheDocument();
    expect(calls[0]).toEqual({ route: 'POST /auth/passkey/options', body: {} });
    expect(calls[1]).toEqual({
      route: 'POST /auth/sign-in/passkey',
      body: { challenge: 'pk-1', role: 'city_dealer', passkey: fakeAssertion },
    });
    expect(sessionStorage.getItem('currentClaim')).toBe('city_dealer');
  });

  it('shows the refusal of the wrong tab and stays', async () => {
    mockApi({
      'POST /auth/passkey/options': { body: { data: { challenge: 'pk-1', options: {} } } },
      'POST /auth/sign-in/passkey': {
        status: 403,
        body: {
          error: 'This account cannot sign in as Franchise. Choose the tab of your role.',
          code: 'FORBIDDEN',
        },
      },
    });
    webauthn.startAuthentication.mockResolvedValue(fakeAssertion);
    const router = renderSignIn();
    await userEvent.click(screen.getByRole('tab', { name: 'Franchise' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This account cannot sign in as Franchise. Choose the tab of your role.',
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(sessionStorage.getItem('idToken')).toBeNull();
  });

  it('is not offered where the browser has no passkeys', () => {
    vi.unstubAllGlobals();
    renderSignIn();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).not.toBeInTheDocument();
  });
});
