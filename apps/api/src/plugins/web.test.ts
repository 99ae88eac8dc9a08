import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../app';
import { TEST_CONFIG, testAppOptions } from '../../test/test-app';
import { getTestDatabase } from '../../test/test-database';

/** The web app's files as the build leaves them: each text file with .br and .gz copies. */
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body>${'<!-- padding -->'.repeat(100)}</body></html>`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(5000))});`;
const SOURCE_MAP = JSON.stringify({ version: 3, sources: ['src/app.tsx'], sourcesContent: ['secret'] });

let app: App;
let webDist: string;
beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'bmet-web-'));
  mkdirSync(join(webDist, 'assets'));
  for (const [name, content] of [
    ['index.html', INDEX],
    ['assets/app-abc123.js', SCRIPT],
    ['assets/app-abc123.js.map', SOURCE_MAP],
  ] as const) {
    writeFileSync(join(webDist, name), content);
    writeFileSync(join(webDist, `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(webDist, `${name}.gz`), gzipSync(content));
  }
  const { db } = await getTestDatabase();
  app = await buildApp({ ...testAppOptions(db), config: { ...TEST_CONFIG, webDist } });
});
afterAll(async () => {
  await app?.close();
  rmSync(webDist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the web app files', () => {
  it('are sent precompressed in the encoding the browser prefers, hashed ones cached for good', async () => {
    const br = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);

    const gzip = await get('/assets/app-abc123.js', 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers client-side routes with index.html, revalidated on each visit', async () => {
    const page = await get('/drivers', 'br');
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const html =
      page.headers['content-encoding'] === 'br'
        ? brotliDecompressSync(page.rawPayload).toString()
        : page.body;
    expect(html).toBe(INDEX);
  });

  it('sends source maps outside production only', async () => {
    expect((await get('/assets/app-abc123.js.map')).statusCode).toBe(200);
    const production = await buildApp({
      ...testAppOptions((await getTestDatabase()).db),
      config: { ...TEST_CONFIG, env: 'production', webDist },
    });
    try {
      for (const encoding of [undefined, 'gzip, deflate, br']) {
        const response = await production.inject({
          method: 'GET',
          url: '/assets/app-abc123.js.map',
          headers: encoding ? { 'accept-encoding': encoding } : {},
        });
        expect(response.statusCode).toBe(404);
        expect(response.body).not.toContain('sourcesContent');
      }
      expect((await production.inject({ method: 'GET', url: '/assets/app-abc123.js' })).statusCode).toBe(200);
    } finally {
      await production.close();
    }
  });

  it('answers a missing bundle with a 404, not the app', async () => {
    const missing = await get('/assets/app-old999.js', 'br');
    expect(missing.statusCode).toBe(404);
  });
});

describe('API answers', () => {
  it('are compressed above 1 KB for clients that accept it, and not below', async () => {
    const big = await get('/api/docs/json', 'gzip');
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(big.rawPayload).toString())).toHaveProperty('openapi');

    const brotli = await get('/api/docs/json', 'br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(
      JSON.parse(gunzipSync(big.rawPayload).toString()),
    );

    const small = await get('/api/auth/me', 'gzip');
    expect(small.statusCode).toBe(401);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toHaveProperty('code', 'UNAUTHORIZED');
  });
});
