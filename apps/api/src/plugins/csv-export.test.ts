import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildApp, type App } from '../app';
import { createAccount } from '../seed/factories';
import { getTestDatabase } from '../../test/test-database';
import { authHeader, issueToken, testAppOptions } from '../../test/test-app';
import { registerCsvExport } from './csv-export';

/**
 * The streaming itself, over real connections: a synthetic export of two million rows that are
 * made on demand, so that what the server reads can be counted while a client reads slowly,
 * stops reading, or goes away.
 */

const BATCH_ROWS = 2000;
const BATCHES = 1000;

type Probe = { batches: number; failAt: number | null };

/** An app with the export `/api/test/export.csv` of `probe`'s rows: random text that does not compress. */
async function startApp(probe: Probe) {
  const { db } = await getTestDatabase();
  const app = await buildApp(testAppOptions(db));
  await app.register(
    async (api: FastifyInstance) =>
      registerCsvExport(api, {
        url: '/test/export.csv',
        access: ['trips', 'list'],
        tags: ['test'],
        summary: 'test',
        description: 'test',
        query: z.object({}),
        fileName: 'test',
        columns: () => [
          { header: 'n', value: (row: { n: number; text: string }) => row.n },
          { header: 'text', value: (row) => row.text },
        ],
        readBatch: async (_request, _query, cursor) => {
          const from = cursor ? Number(cursor) : 0;
          probe.batches++;
          if (probe.failAt !== null && probe.batches >= probe.failAt)
            throw new Error('the database went away');
          await sleep(1);
          const rows = Array.from({ length: BATCH_ROWS }, (_, i) => ({
            n: from + i,
            text: randomBytes(48).toString('base64'),
          }));
          const next = from + BATCH_ROWS;
          return { rows, nextCursor: next < BATCHES * BATCH_ROWS ? String(next) : null };
        },
      }),
    { prefix: '/api' },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address() as { port: number };
  const admin = await createAccount(db, { role: 'admin' });
  const { token } = await issueToken(db, admin);
  return { app, port: address.port, headers: authHeader(token) };
}

function request(port: number, headers: Record<string, string>): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/api/test/export.csv', headers }, resolve).on('error', reject);
  });
}

/** A count once it has stopped changing for half a second (within 10 s). */
async function settled(read: () => number): Promise<number> {
  let last = read();
  for (let waited = 0; waited < 10_000; waited += 500) {
    await sleep(500);
    if (read() === last) return last;
    last = read();
  }
  throw new Error('still changing after 10 s');
}

let app: App | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

describe('a streamed export', () => {
  let probe: Probe;
  let port: number;
  let headers: Record<string, string>;
  beforeAll(() => {
    probe = { batches: 0, failAt: null };
  });

  it.each([
    ['br', createBrotliDecompress],
    ['gzip', createGunzip],
  ] as const)(
    'arrives compressed (%s) as it is read, and the server reads no further than the client takes',
    async (encoding, decompress) => {
      probe = { batches: 0, failAt: null };
      ({ app, port, headers } = await startApp(probe));
      const response = await request(port, { ...headers, 'accept-encoding': encoding });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      // Streamed: no length known in advance.
      expect(response.headers['content-length']).toBeUndefined();

      // The first rows arrive while most of the export is still unread.
      const text = response.pipe(decompress());
      const first = await new Promise<string>((resolve) =>
        text.once('data', (chunk: Buffer) => resolve(chunk.toString())),
      );
      expect(first.startsWith('\uFEFFn,text\r\n0,')).toBe(true);
      expect(probe.batches).toBeLessThan(BATCHES / 10);

      // The client stops reading: the server soon stops reading the database.
      // Once the connection's buffers are full (some megabytes), nothing more is read.
      text.pause();
      response.pause();
      const held = await settled(() => probe.batches);
      await sleep(1000);
      expect(probe.batches).toBe(held);
      expect(held).toBeLessThan(BATCHES / 10);

      // The client goes away: the walk ends there.
      response.destroy();
      await sleep(300);
      const atEnd = probe.batches;
      await sleep(500);
      expect(probe.batches).toBeLessThanOrEqual(atEnd + 1);
      expect(probe.batches).toBeLessThan(BATCHES / 10);
    },
  );

  it('is cut off, not ended as if complete, when reading fails after the start', async () => {
    probe = { batches: 0, failAt: 3 };
    ({ app, port, headers } = await startApp(probe));
    const response = await request(port, headers);
    expect(response.statusCode).toBe(200);
    const outcome = await new Promise<string>((resolve) => {
      response.on('data', () => {});
      response.on('end', () => resolve('ended'));
      response.on('error', () => resolve('failed'));
      response.on('aborted', () => resolve('failed'));
    });
    expect(outcome).toBe('failed');
    expect(probe.batches).toBe(3);
  });

  it('answers an error body when the first batch fails, before anything is sent', async () => {
    probe = { batches: 0, failAt: 1 };
    ({ app, port, headers } = await startApp(probe));
    const response = await app.inject({ method: 'GET', url: '/api/test/export.csv', headers });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL' });
  });

  it('ends with the server: a shutdown does not wait for a slow download', async () => {
    probe = { batches: 0, failAt: null };
    ({ app, port, headers } = await startApp(probe));
    const response = await request(port, headers);
    response.pause();
    await sleep(200);
    const closing = Date.now();
    const closed = app.close();
    app = null;
    await closed;
    expect(Date.now() - closing).toBeLessThan(3000);
  });
});
