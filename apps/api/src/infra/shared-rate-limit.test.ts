import { createServer, connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { getTestDatabase } from '../../test/test-database';
import { TEST_CONFIG, testAppOptions, uniqueAddress } from '../../test/test-app';
import { findTestRedis } from '../../test/redis';

const redis = await findTestRedis();

describe.skipIf(!redis.url)(`rate limits with Redis${redis.url ? '' : ` (skipped: ${redis.reason})`}`, () => {
  it('count the requests of one address across two instances', async () => {
    const { db } = await getTestDatabase();
    const config = { ...TEST_CONFIG, rateLimitPerMinute: 4, redisUrl: redis.url! };
    const [first, second] = await Promise.all([
      buildApp({ ...testAppOptions(db), config }),
      buildApp({ ...testAppOptions(db), config }),
    ]);
    try {
      const address = uniqueAddress();
      const call = (app: typeof first) =>
        app.inject({ method: 'GET', url: '/api/health', remoteAddress: address });
      for (const app of [first, second, first, second]) expect((await call(app)).statusCode).toBe(200);
      // Each instance has seen two requests; together they have seen the limit.
      const refused = await call(first);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual({ error: expect.any(String), code: 'RATE_LIMITED' });
      expect((await call(second)).statusCode).toBe(429);
      // Another address is counted on its own.
      expect(
        (await second.inject({ method: 'GET', url: '/api/health', remoteAddress: uniqueAddress() }))
          .statusCode,
      ).toBe(200);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('let requests pass uncounted when Redis holds the connection but stops answering', async () => {
    const { db } = await getTestDatabase();
    const proxy = await stallingProxy(redis.url!);
    const config = { ...TEST_CONFIG, rateLimitPerMinute: 2, redisUrl: proxy.url };
    const app = await buildApp({ ...testAppOptions(db), config });
    try {
      const address = uniqueAddress();
      const call = () => app.inject({ method: 'GET', url: '/api/health', remoteAddress: address });
      expect((await call()).statusCode).toBe(200);
      proxy.stall();
      // Without an answer from Redis the requests are not counted, and not held either.
      for (let i = 0; i < 3; i += 1) expect((await call()).statusCode).toBe(200);
    } finally {
      await app.close();
      proxy.close();
    }
  });
});

/** A TCP proxy to Redis that, once stalled, keeps its connections open but passes nothing on. */
async function stallingProxy(redisUrl: string) {
  const target = new URL(redisUrl);
  let stalled = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
    }
    client.on('data', (chunk) => stalled || upstream.write(chunk));
    upstream.on('data', (chunk) => stalled || client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    stall: () => (stalled = true),
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
