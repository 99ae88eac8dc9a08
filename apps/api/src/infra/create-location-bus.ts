import { createInProcessLocationBus, type LocationBus } from './location-bus';

/** Redis pub/sub when REDIS_URL is set (several API instances), otherwise in-process. */
export async function createLocationBus(redisUrl: string | undefined): Promise<LocationBus> {
  if (redisUrl) throw new Error('The Redis location bus is not available in this version.');
  return createInProcessLocationBus();
}
