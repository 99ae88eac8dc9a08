import { describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { getTestDatabase } from '../test/test-database';
import { TEST_CONFIG, testAppOptions, uniqueAddress } from '../test/test-app';
import { findTestRedis } from './test-redis';

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
});
