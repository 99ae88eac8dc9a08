import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp, type App, type AppOptions } from './app';
import { getTestDatabase } from '../test/test-database';
import { authHeader, issueToken, TEST_CONFIG, testAppOptions } from '../test/test-app';
import { createAccount } from './seed/factories';

/**
 * What a client meets at the edge of the server, before or around any route: errors of the HTTP
 * parser and the router, slow requests, the global limit and the headers every answer carries.
 * Some of these happen only on a real socket, so these apps listen.
 */

const apps: App[] = [];

async function listen(config: Partial<AppOptions['config']> = {}): Promise<{ app: App; url: string }> {
  const { db } = await getTestDatabase();
  const app = await buildApp({ ...testAppOptions(db), config: { ...TEST_CONFIG, ...config } });
  apps.push(app);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: address };
}

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

/** Sends raw bytes and answers what came back once the server closed or `ms` passed. */
function rawExchange(url: string, chunks: string[], ms = 10_000): Promise<{ text: string; after: number }> {
  const { port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, after: Date.now() - started }));
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
    setTimeout(() => socket.destroy(), ms);
  });
}

function bodyOf(raw: string): unknown {
  return JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4));
}

describe('errors before a route runs answer the one error body', () => {
  let url: string;
  beforeAll(async () => {
    ({ url } = await listen());
  });

  it('a malformed URL is a 400', async () => {
    const response = await fetch(`${url}/api/drivers/driver/%zz`);
    expect(response.status).toBe(400);
    expectEdgeHeaders(response.headers);
    expect(await response.json()).toEqual({ error: m.badUrl(), code: 'VALIDATION' });
  });

  it('an over-long path parameter is a 414', async () => {
    const response = await fetch(`${url}/api/drivers/driver/${'a'.repeat(500)}`);
    expect(response.status).toBe(414);
    expectEdgeHeaders(response.headers);
    expect(await response.json()).toEqual({ error: m.uriTooLong(), code: 'URI_TOO_LONG' });
  });

  it('an over-long query or header is a 431', async () => {
    const longQuery = await fetch(`${url}/api/drivers?q=${'a'.repeat(20_000)}`);
    expect(longQuery.status).toBe(431);
    expectEdgeHeaders(longQuery.headers);
    expect(await longQuery.json()).toEqual({ error: m.headersTooLarge(), code: 'HEADERS_TOO_LARGE' });

    const longHeader = await fetch(`${url}/api/auth/me`, { headers: { 'x-filler': 'a'.repeat(20_000) } });
    expect(longHeader.status).toBe(431);
    expect(await longHeader.json()).toEqual({ error: m.headersTooLarge(), code: 'HEADERS_TOO_LARGE' });
  });

  it('bytes that are not HTTP get a 400 with the error body', async () => {
    const { text } = await rawExchange(url, ['NOT HTTP AT ALL\r\n\r\n']);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text).toMatch(/\r\nx-frame-options: DENY\r\n/i);
    expect(text).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(bodyOf(text)).toEqual({ error: m.badRequest(), code: 'VALIDATION' });
  });
});

/** Answers given before any hook carry the headers of every answer. */
function expectEdgeHeaders(headers: Headers) {
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('x-frame-options')).toBe('DENY');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
}

describe('slow clients', () => {
  it('a body that never finishes is answered 408 and its connection closed', async () => {
    const { url } = await listen({ requestTimeoutSeconds: 1 });
    const { text, after } = await rawExchange(url, [
      'POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"em',
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text)).toEqual({ error: m.requestTimeout(), code: 'REQUEST_TIMEOUT' });
    expect(after).toBeLessThan(9_000);
  });
});

describe('headers', () => {
  let app: App;
  beforeAll(async () => {
    ({ app } = await listen());
  });

  it('API answers are never cached; frames are denied; HSTS only over HTTPS', async () => {
    for (const url of ['/api/auth/me', '/api/no-such-thing', '/api/settings']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends HSTS when a trusted proxy says the request came over HTTPS', async () => {
    const { app: behindProxy } = await listen({ trustProxy: 1 });
    const https = await behindProxy.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    // Without a trusted proxy the same header is a client's claim, not a fact.
    const claimed = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(claimed.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('the global API limit', () => {
  it('counts every /api request, refused ones included', async () => {
    const { app } = await listen({ rateLimitPerMinute: 30 });
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/drivers',
        headers: { authorization: 'Bearer not-a-token' },
        remoteAddress: '127.0.0.9',
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(30).every((status) => status === 429)).toBe(true);
    const refused = await app.inject({
      method: 'GET',
      url: '/api/no-such-thing',
      remoteAddress: '127.0.0.9',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: m.rateLimited(), code: 'RATE_LIMITED' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another address has its own count.
    const other = await app.inject({ method: 'GET', url: '/api/auth/me', remoteAddress: '127.0.0.10' });
    expect(other.statusCode).toBe(401);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  it('takes the address the proxy appended, however the client fills the header', async () => {
    const { app } = await listen({ trustProxy: 1, rateLimitPerMinute: 10 });
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const response = await app.inject({
        method: 'GET',
        url: '/api/auth/me',
        remoteAddress: '127.0.0.1',
        // A client rotates the first value; the proxy appends the real address last.
        headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });
});

describe('a server that stops', () => {
  /** A connection to the server, and a promise of everything it received until it was closed. */
  async function openConnection(url: string) {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(text)));
    await new Promise((resolve) => socket.once('connect', resolve));
    return { socket, closed };
  }

  it('does not wait for a connection that has sent nothing, and closes it', async () => {
    const { app, url } = await listen();
    const silent = await openConnection(url);
    await app.close();
    expect(await silent.closed).toBe('');
  });

  it('answers a request in flight whole, with Connection: close, then closes its connection', async () => {
    const { app, url } = await listen();
    const received = new Promise((resolve) => app.server.once('request', resolve));
    const client = await openConnection(url);
    const body = JSON.stringify({
      email: 'nobody@bookmyetaxi.test',
      password: 'wrong-password',
      role: 'admin',
    });
    client.socket.write(
      'POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await received;
    const stopped = app.close();
    client.socket.write(body.slice(10));
    const text = await client.closed;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(text)).toMatchObject({ code: 'UNAUTHORIZED' });
    await stopped;
  });

  it('ends an open event stream and closes its connection', async () => {
    const { app, url } = await listen();
    const { db } = await getTestDatabase();
    const { token } = await issueToken(db, await createAccount(db, { role: 'admin' }));
    const stream = await fetch(`${url}/api/sos/stream`, { headers: authHeader(token) });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: open');
    await app.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});
