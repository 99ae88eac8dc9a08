import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportButton, exportAddress } from './export-button';

const notify = vi.hoisted(() => vi.fn());
vi.mock('../lib/notify', () => ({ showNotification: notify }));

function renderButton(query: Record<string, string | boolean | undefined>) {
  render(
    <MantineProvider>
      <ExportButton path="/trips/export.csv" query={query} />
    </MantineProvider>,
  );
  return screen.getByRole('button', { name: 'Export CSV' });
}

/** A fetch that answers `response` once the test lets it go. */
function heldFetch(response: () => Response) {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const fetchMock = vi.fn(async () => {
    await held;
    return response();
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, release };
}

describe('ExportButton', () => {
  const clicked: string[] = [];
  beforeEach(() => {
    clicked.length = 0;
    notify.mockReset();
    sessionStorage.setItem('idToken', 'the-token');
    sessionStorage.setItem('expirationTime', String(Date.now() + 3_600_000));
    sessionStorage.setItem('currentClaim', 'admin');
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
      expect(this.hasAttribute('download')).toBe(true);
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for a ticket for the filters on screen, shows it is starting, then hands the download over', async () => {
    const ticketUrl = '/api/trips/export.csv?lang=en&q=rao&status=completed&ticket=abc';
    const { fetchMock, release } = heldFetch(
      () =>
        new Response(JSON.stringify({ data: { url: ticketUrl, expiresAt: new Date().toISOString() } }), {
          status: 201,
        }),
    );
    const button = renderButton({ q: 'rao', status: 'completed', paid: undefined, carType: '' });
    await userEvent.click(button);

    await waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAttribute('aria-busy', 'true');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/auth/download-tickets');
    expect(init.method).toBe('POST');
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer the-token');
    expect(JSON.parse(init.body as string)).toEqual({
      url: '/api/trips/export.csv?q=rao&status=completed&lang=en',
    });

    release();
    await waitFor(() => expect(clicked).toEqual([ticketUrl]));
    await waitFor(() => expect(button).toBeEnabled());
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ color: 'teal' }));
    // The link is gone once the download has been handed over.
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it("shows the server's message when the export is refused, and downloads nothing", async () => {
    const { release } = heldFetch(
      () =>
        new Response(JSON.stringify({ error: 'Only admins can see deleted drivers.', code: 'FORBIDDEN' }), {
          status: 403,
        }),
    );
    const button = renderButton({ deleted: true });
    await userEvent.click(button);
    release();
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({ color: 'red', message: 'Only admins can see deleted drivers.' }),
    );
    expect(clicked).toEqual([]);
    await waitFor(() => expect(button).toBeEnabled());
  });
});

describe('exportAddress', () => {
  it('writes the non-empty filters and the language into the query', () => {
    expect(exportAddress('/drivers/export.csv', { q: 'a b', deleted: true, x: null, y: '' }, 'hi')).toBe(
      '/api/drivers/export.csv?q=a+b&deleted=true&lang=hi',
    );
    expect(exportAddress('/customers/export.csv', {}, 'en')).toBe('/api/customers/export.csv?lang=en');
  });
});
