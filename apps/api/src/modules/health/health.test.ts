import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { createInProcessLocationBus } from '../../infra/location-bus';
import { testAppOptions, useTestApp } from '../../../test/test-app';

const t = useTestApp();

describe('GET /api/health', () => {
  it('answers 200 while the process runs, without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('GET /api/ready', () => {
  it('answers 200 when the database answers with every migration applied', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: [{ name: 'database', ok: true }] });
  });

  it('answers 503 naming the check that failed when Redis does not answer', async () => {
    const bus = {
      ...createInProcessLocationBus(),
      ping: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6390')),
    };
    const app = await buildApp({ ...testAppOptions(t.db), locationBus: bus });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'not ready',
        checks: [
          { name: 'database', ok: true },
          { name: 'redis', ok: false, error: 'connect ECONNREFUSED 127.0.0.1:6390' },
        ],
      });
    } finally {
      await app.close();
    }
  });

  it('answers 503 in time when Redis hangs', async () => {
    const bus = { ...createInProcessLocationBus(), ping: () => new Promise<void>(() => {}) };
    const app = await buildApp({ ...testAppOptions(t.db), locationBus: bus });
    try {
      const response = await app.inject({ method: 'GET', url: '/api/ready' });
      expect(response.statusCode).toBe(503);
      expect(response.json().checks[1]).toEqual({
        name: 'redis',
        ok: false,
        error: 'no answer within 2000 ms',
      });
    } finally {
      await app.close();
    }
  });
});

describe('an unknown path asked for JSON', () => {
  it.each(['/health', '/healthz', '/status'])(
    'answers %s with 404 and the error body, not the web page',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.json()).toEqual({ error: 'Not found.', code: 'NOT_FOUND' });
    },
  );
});
