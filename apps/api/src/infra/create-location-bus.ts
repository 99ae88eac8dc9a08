import { createInProcessLocationBus, type LocationBus } from './location-bus';
import { createRedisLocationBus, type RedisLocationBusOptions } from './redis-location-bus';

/** Redis pub/sub when REDIS_URL is set (several API instances), otherwise in-process. */
export async function createLocationBus(
  redisUrl: string | undefined,
  options: RedisLocationBusOptions = {},
): Promise<LocationBus> {
  if (redisUrl) return createRedisLocationBus(redisUrl, options);
  return createInProcessLocationBus();
}
