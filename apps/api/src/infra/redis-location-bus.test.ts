import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationEvent } from '@bmet/shared/schemas/driver';
import { createLocationBus } from './create-location-bus';
import type { LocationBus } from './location-bus';
import { createRedisLocationBus } from './redis-location-bus';
import { findTestRedis } from '../../test/redis';

const redis = await findTestRedis();

describe.skipIf(!redis.url)(`the Redis location bus${redis.url ? '' : ` (skipped: ${redis.reason})`}`, () => {
  const url = redis.url!;
  // A channel of this run only: other runs on the same Redis do not mix in.
  const channel = `bmet:test:${randomUUID()}`;
  let a: LocationBus;
  let b: LocationBus;
  let raw: Redis;
  const warnings: string[] = [];

  beforeAll(async () => {
    a = await createRedisLocationBus(url, { channel, warn: (message) => warnings.push(message) });
    b = await createRedisLocationBus(url, { channel, warn: (message) => warnings.push(message) });
    raw = new Redis(url);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await raw?.quit();
  });

  const next = (bus: LocationBus) =>
    new Promise<LocationEvent>((resolve) => {
      const stop = bus.subscribe((event) => {
        stop();
        resolve(event);
      });
    });

  it('carries a position from one bus to every bus on the channel, the sender included', async () => {
    const event = { driverId: randomUUID(), lat: 12.97, long: 77.59, at: new Date().toISOString() };
    const onA = next(a);
    const onB = next(b);
    await a.publish(event);
    expect(await onB).toEqual(event);
    expect(await onA).toEqual(event);
  });

  it('drops messages that are not positions, and keeps delivering the good ones', async () => {
    const received: LocationEvent[] = [];
    const stop = b.subscribe((event) => received.push(event));
    await raw.publish(channel, 'not json');
    await raw.publish(channel, JSON.stringify({ driverId: 'x', lat: 'north' }));
    await raw.publish(channel, JSON.stringify({ driverId: randomUUID(), lat: 1, long: 2 }));
    const good = { driverId: randomUUID(), lat: 1, long: 2, at: new Date().toISOString() };
    const delivered = next(b);
    await raw.publish(channel, JSON.stringify(good));
    expect(await delivered).toEqual(good);
    stop();
    expect(received).toEqual([good]);
    expect(warnings.some((warning) => warning.includes('dropped a malformed message'))).toBe(true);
  });

  it('stops delivering to a listener once it unsubscribes', async () => {
    const received: LocationEvent[] = [];
    const stop = b.subscribe((event) => received.push(event));
    stop();
    const event = { driverId: randomUUID(), lat: 3, long: 4, at: new Date().toISOString() };
    const onB = next(b);
    await a.publish(event);
    await onB;
    expect(received).toEqual([]);
  });
});

describe('creating a Redis location bus', () => {
  it('fails with a readable message, without the password, when Redis cannot be reached', async () => {
    await expect(
      createRedisLocationBus('redis://:secret-password@127.0.0.1:1', { warn: () => {} }),
    ).rejects.toThrow(/^Cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
  });
});

describe('choosing the location bus', () => {
  it('uses Redis when a URL is configured, and in-process without', async () => {
    await expect(createLocationBus('redis://127.0.0.1:1', { warn: () => {} })).rejects.toThrow(
      /^Cannot reach Redis/,
    );
    const bus = await createLocationBus(undefined);
    const event = { driverId: randomUUID(), lat: 1, long: 2, at: new Date().toISOString() };
    const received: LocationEvent[] = [];
    bus.subscribe((e) => received.push(e));
    await bus.publish(event);
    expect(received).toEqual([event]);
    await bus.close();
  });
});
