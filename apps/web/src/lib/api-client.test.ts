import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest } from './api-client';
import { saveSession } from './session';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('sends the bearer token and answers the JSON body', async () => {
    saveSession({ idToken: 'tok', expirationTime: Date.now() + 60_000, role: 'admin' });
    const fetchMock = vi.fn().mockResolvedValue(json(200, { data: { n: 1 } }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiRequest('GET', '/thing');
    expect(result).toEqual({ data: { n: 1 } });
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/thing');
    expect(new Headers(fetchMock.mock.calls[0]![1].headers).get('authorization')).toBe('Bearer tok');
  });

  it("exposes the server's message as response.data.error", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(json(403, { error: 'No.', code: 'FORBIDDEN' })));
    const error = await apiRequest('GET', '/thing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).response.data.error).toBe('No.');
    expect((error as ApiError).status).toBe(403);
  });

  it('clears the session and goes to / on a 401 of a signed-in call', async () => {
    saveSession({ idToken: 'tok', expirationTime: Date.now() + 60_000, role: 'admin' });
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, replace });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(401, { error: 'Please sign in.', code: 'UNAUTHORIZED' })),
    );
    await expect(apiRequest('GET', '/thing')).rejects.toBeInstanceOf(ApiError);
    expect(sessionStorage.getItem('idToken')).toBeNull();
    expect(replace).toHaveBeenCalledWith('/');
  });

  it('does not redirect on a 401 of a call made without a session (a failed sign-in)', async () => {
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, replace });
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(json(401, { error: 'Incorrect email or password.', code: 'UNAUTHORIZED' })),
    );
    await expect(apiRequest('POST', '/auth/sign-in', { body: {} })).rejects.toThrow(
      'Incorrect email or password.',
    );
    expect(replace).not.toHaveBeenCalled();
  });

  it('answers a generic message when a failure has no error body (a proxy page)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn().mockResolvedValue(new Response('<html>Bad gateway</html>', { status: 502 })),
    );
    const error = (await apiRequest('GET', '/thing').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.body.code).toBe('INTERNAL');
    expect(error.message).not.toContain('html');
  });
});
