import { describe, expect, it } from 'vitest';
import { authHeader, signInAs, useTestApp } from '../../test/test-app';

const t = useTestApp();

describe('text holding the NUL character', () => {
  it('is refused with 400 in any body field, before it reaches the database', async () => {
    const { token } = await signInAs(t, 'admin');
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      headers: authHeader(token),
      payload: { displayName: 'Asha\u0000Rao' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'displayName: Must not contain the NUL character.',
      code: 'VALIDATION',
      fieldErrors: { displayName: ['Must not contain the NUL character.'] },
    });
  });

  it('is refused with 400 in nested fields and in query strings', async () => {
    const { token } = await signInAs(t, 'admin');
    const nested = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/updateRates/goa',
      headers: authHeader(token),
      payload: { sedan: { note: 'x\u0000' } },
    });
    expect(nested.statusCode).toBe(400);
    expect(nested.json().fieldErrors).toEqual({ 'sedan.note': ['Must not contain the NUL character.'] });
    const query = await t.app.inject({
      method: 'GET',
      url: '/api/customers?q=a%00',
      headers: authHeader(token),
    });
    expect(query.statusCode).toBe(400);
  });

  it('still answers 401 first to a caller without a token', async () => {
    const response = await t.app.inject({
      method: 'PATCH',
      url: '/api/auth/me',
      payload: { displayName: 'a\u0000' },
    });
    expect(response.statusCode).toBe(401);
  });
});
