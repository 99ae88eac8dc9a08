import { Redis } from 'ioredis';

/**
 * The Redis the tests may use: REDIS_URL, else one on 127.0.0.1:6379, if it answers a PING
 * within a second. Tests that need it skip themselves (naming the reason) when there is none.
 */
export async function findTestRedis(): Promise<{ url: string | null; reason: string }> {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return { url, reason: '' };
  } catch (error) {
    return { url: null, reason: `no Redis answers at ${url} (${(error as Error).message}); set REDIS_URL` };
  } finally {
    client.disconnect();
  }
}
