import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query-client';
import { SecondFactorScreen } from './second-factor-screen';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../../lib/notify', () => ({ showNotification: notify }));
const webauthn = vi.hoisted(() => ({ startRegistration: vi.fn(), startAuthentication: vi.fn() }));
vi.mock('@simplewebauthn/browser', () => webauthn);
vi.mock('qrcode', () => ({ toDataURL: vi.fn().mockResolvedValue('data:image/png;base64,AAAA') }));

type Status = {
  totp: boolean;
  passkeys: { id: string; name: string; createdAt: string; lastUsedAt: string | null }[];
  recoveryCodesLeft: number;
  required: boolean;
};

/** The API of the screen over a status the calls change, as the server would. */
function mockApi(status: Status) {
  const calls: { route: string; body: unknown }[] = [];
  const json = (body: unknown, code = 200) => new Response(JSON.stringify(body), { status: code });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const route = `${init.method ?? 'GET'} ${url.replace(/^\/api/, '')}`;
      calls.push({ route, body: init.body ? JSON.parse(init.body as string) : undefined });
      switch (route) {
        case 'GET /auth/second-factor':
          return json({ data: status });
        case 'POST /auth/second-factor/totp':
          return json({ data: { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x' } });
        case 'POST /auth/second-factor/totp/confirm':
          status.totp = true;
          status.recoveryCodesLeft = 10;
          return json({ data: { recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'], signIn: null } });
        case 'DELETE /auth/second-factor/totp':
          status.totp = false;
          return new Response(null, { status: 204 });
        case 'POST /auth/second-factor/recovery-codes':
          return json({ data: { recoveryCodes: ['eeeee-fffff'] } });
        case 'POST /auth/second-factor/passkeys/options':
          return json({ data: { challenge: 'enrol-1', options: { challenge: 'r' } } });
        case 'POST /auth/second-factor/passkeys':
          status.passkeys.push({
            id: 'new',
            name: 'Office laptop',
            createdAt: '2026-03-01T10:00:00Z',
            lastUsedAt: null,
          });
          return json({ data: { recoveryCodes: null, signIn: null } });
        default:
          if (route.startsWith('DELETE /auth/second-factor/passkeys/')) {
            status.passkeys = status.passkeys.filter((p) => !route.endsWith(`/${encodeURIComponent(p.id)}`));
            return new Response(null, { status: 204 });
          }
          throw new Error(`No answer for ${route}`);
      }
    }),
  );
  return calls;
}

function renderScreen() {
  render(
    <MantineProvider>
      <QueryClientProvider client={createQueryClient()}>
        <MemoryRouter>
          <SecondFactorScreen />
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const section = (name: string) => screen.getByRole('region', { name });

describe('SecondFactorScreen', { timeout: 20_000 }, () => {
  beforeEach(() => {
    notify.mockReset();
    sessionStorage.setItem('idToken', 'the-token');
    sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
    sessionStorage.setItem('currentClaim', 'city_dealer');
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sets up an authenticator app with its first code and shows the recovery codes once', async () => {
    const calls = mockApi({ totp: false, passkeys: [], recoveryCodesLeft: 0, required: false });
    renderScreen();
    const app = await screen.findByRole('region', { name: 'Authenticator app' });
    expect(within(app).getByText('Off')).toBeInTheDocument();
    expect(
      screen.getByText('Recovery codes come with your first authenticator app or passkey.'),
    ).toBeInTheDocument();

    await userEvent.click(within(app).getByRole('button', { name: 'Set up an authenticator app' }));
    expect(await within(app).findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    await userEvent.type(within(app).getByLabelText(/^Code from the authenticator app/), '12345');
    await userEvent.click(within(app).getByRole('button', { name: 'Turn on' }));
    expect(within(app).getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    await userEvent.type(within(app).getByLabelText(/^Code from the authenticator app/), '6');
    await userEvent.click(within(app).getByRole('button', { name: 'Turn on' }));

    const dialog = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(dialog).getByText('aaaaa-bbbbb')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'POST /auth/second-factor/totp/confirm')?.body).toEqual({
      code: '123456',
      remember: false,
    });
    // The codes say it is on: no notification over them.
    expect(notify).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'I have saved the codes' }));
    expect(await within(section('Authenticator app')).findByText('On')).toBeInTheDocument();
    expect(await screen.findByText('Recovery codes left: 10')).toBeInTheDocument();
  });

  it('lists passkeys with their dates in India time, adds one and removes one after asking', async () => {
    const calls = mockApi({
      totp: true,
      passkeys: [
        {
          id: 'pk/1',
          name: 'Phone',
          createdAt: '2026-01-31T20:00:00Z',
          lastUsedAt: '2026-02-02T03:30:00Z',
        },
      ],
      recoveryCodesLeft: 7,
      required: true,
    });
    webauthn.startRegistration.mockResolvedValue({
      id: 'new',
      rawId: 'new',
      type: 'public-key',
      response: {},
    });
    renderScreen();
    const passkeys = await screen.findByRole('region', { name: 'Passkeys' });
    expect(
      screen.getByText('Your role requires a second factor: keep at least one authenticator app or passkey.'),
    ).toBeInTheDocument();
    // 20:00 UTC on 31 January is 1:30 am on 1 February in India.
    expect(within(passkeys).getByText('Added 01/02/2026, 1:30 am')).toBeInTheDocument();
    expect(within(passkeys).getByText('Last used 02/02/2026, 9:00 am')).toBeInTheDocument();

    await userEvent.type(within(passkeys).getByLabelText('Name of the passkey (optional)'), 'Office laptop');
    await userEvent.click(within(passkeys).getByRole('button', { name: 'Add a passkey' }));
    expect(await within(passkeys).findByText('Office laptop')).toBeInTheDocument();
    expect(within(passkeys).getByText('Not used yet')).toBeInTheDocument();
    expect(calls.find((c) => c.route === 'POST /auth/second-factor/passkeys')?.body).toMatchObject({
      challenge: 'enrol-1',
      name: 'Office laptop',
    });

    await userEvent.click(within(passkeys).getByRole('button', { name: 'Remove Phone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the passkey Phone?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await vi.waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ color: 'teal', message: 'The passkey was removed.' }),
    );
    expect(calls.some((c) => c.route === 'DELETE /auth/second-factor/passkeys/pk%2F1')).toBe(true);
    expect(await within(passkeys).findByText('Office laptop')).toBeInTheDocument();
    await vi.waitFor(() => expect(within(passkeys).queryByText('Phone')).not.toBeInTheDocument());
  });

  it('issues new recovery codes after asking', async () => {
    mockApi({ totp: true, passkeys: [], recoveryCodesLeft: 2, required: false });
    renderScreen();
    expect(await screen.findByText('Recovery codes left: 2')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Get new codes' }));
    const confirm = await screen.findByRole('dialog', { name: 'Get new recovery codes?' });
    expect(within(confirm).getByText('Your old recovery codes stop working.')).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Get new codes' }));
    const codes = await screen.findByRole('dialog', { name: 'Your recovery codes' });
    expect(within(codes).getByText('eeeee-fffff')).toBeInTheDocument();
  });

  it('removes the authenticator app after asking', async () => {
    const calls = mockApi({ totp: true, passkeys: [], recoveryCodesLeft: 10, required: false });
    renderScreen();
    const app = await screen.findByRole('region', { name: 'Authenticator app' });
    await userEvent.click(within(app).getByRole('button', { name: 'Remove' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove the authenticator app?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((c) => c.route === 'DELETE /auth/second-factor/totp')).toBe(false);
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(within(app).getByRole('button', { name: 'Remove' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Remove the authenticator app?' })).getByRole(
        'button',
        {
          name: 'Remove',
        },
      ),
    );
    expect(await within(app).findByText('Off')).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith({ color: 'teal', message: 'The authenticator app was removed.' });
  });
});
