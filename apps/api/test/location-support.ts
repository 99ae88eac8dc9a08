import { afterAll, beforeAll } from 'vitest';
import { buildApp, type App } from '../src/app';
import type { Db } from '../src/db/client';
import type { AccountRow } from '../src/seed/factories';
import { createAccount, createDriver } from '../src/seed/factories';
import { createInProcessLocationBus, type LocationBus } from '../src/infra/location-bus';
import { authHeader, issueToken, testAppOptions } from './test-app';
import { getTestDatabase } from './test-database';

/**
 * Helpers of this module's tests: a small hierarchy to test scope against, device tokens issued
 * through the API, and a Server-Sent Events reader like the web client's (fetch and a stream).
 */

export type LocationTestApp = { app: App; db: Db; bus: LocationBus; baseUrl: string };

/**
 * A test app whose location bus the test can reach, built before the file's tests and closed
 * after them. With `listen`, it also serves HTTP on a free port (for the event streams).
 */
export function useLocationTestApp(
  options: { listen?: boolean; bus?: () => Promise<LocationBus> } = {},
): LocationTestApp {
  const context = {} as LocationTestApp;
  beforeAll(async () => {
    const { db } = await getTestDatabase();
    const bus = options.bus ? await options.bus() : createInProcessLocationBus();
    const app = await buildApp({ ...testAppOptions(db), locationBus: bus });
    await app.ready();
    let baseUrl = '';
    if (options.listen) {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('The test server has no port');
      baseUrl = `http://127.0.0.1:${address.port}`;
    }
    Object.assign(context, { app, db, bus, baseUrl });
  });
  afterAll(async () => {
    await context.app?.close();
    await context.bus?.close();
  });
  return context;
}

type Staff = { account: AccountRow; token: string };

async function staff(db: Db, input: Parameters<typeof createAccount>[1]): Promise<Staff> {
  const account = await createAccount(db, input);
  return { account, token: (await issueToken(db, account)).token };
}

/** Two dealers, each with a franchise and a driver; an unassigned and a soft-deleted driver. */
export async function createScope(db: Db) {
  const admin = await staff(db, { role: 'admin' });
  const dealer = await staff(db, { role: 'city_dealer', state: 'maharashtra' });
  const franchise = await staff(db, { role: 'franchise', dealerId: dealer.account.id });
  const sisterFranchise = await staff(db, { role: 'franchise', dealerId: dealer.account.id });
  const otherDealer = await staff(db, { role: 'city_dealer', state: 'karnataka' });
  const otherFranchise = await staff(db, { role: 'franchise', dealerId: otherDealer.account.id });

  const located = { lat: 19.076, long: 72.8777, positionAt: new Date(Date.now() - 60_000) };
  const driver = await createDriver(db, { franchiseId: franchise.account.id, ...located });
  const sisterDriver = await createDriver(db, { franchiseId: sisterFranchise.account.id, ...located });
  const otherDriver = await createDriver(db, {
    franchiseId: otherFranchise.account.id,
    lat: 12.9716,
    long: 77.5946,
    positionAt: new Date(),
  });
  const unassignedDriver = await createDriver(db, { franchiseId: null, ...located });
  const unlocatedDriver = await createDriver(db, {
    franchiseId: franchise.account.id,
    lat: null,
    long: null,
    positionAt: null,
  });
  const deletedDriver = await createDriver(db, {
    franchiseId: franchise.account.id,
    deletedAt: new Date(),
    ...located,
  });
  return {
    admin,
    dealer,
    franchise,
    sisterFranchise,
    otherDealer,
    otherFranchise,
    driver,
    sisterDriver,
    otherDriver,
    unassignedDriver,
    unlocatedDriver,
    deletedDriver,
  };
}

/** Issues a device token for a driver through the API and answers its secret. */
export async function issueDeviceToken(app: App, staffToken: string, driverId: string, label = 'Test phone') {
  const response = await app.inject({
    method: 'POST',
    url: `/api/drivers/driver/${driverId}/device-tokens`,
    headers: authHeader(staffToken),
    payload: { label },
  });
  if (response.statusCode !== 201) {
    throw new Error(`Issuing a device token answered ${response.statusCode}: ${response.body}`);
  }
  return response.json<{ data: { id: string; token: string } }>().data;
}

/** Reports a position as the driver app does. */
export function reportLocation(
  app: App,
  deviceToken: string | null,
  body: unknown,
  options: { remoteAddress?: string } = {},
) {
  return app.inject({
    method: 'POST',
    url: '/api/driver-app/location',
    headers: deviceToken ? authHeader(deviceToken) : {},
    payload: body as Record<string, unknown>,
    remoteAddress: options.remoteAddress,
  });
}

export type SseMessage = { event: string; data: string } | { comment: string };

/** Reads a Server-Sent Events response message by message, as the web client does with fetch. */
export class SseReader {
  private buffer = '';
  private done = false;
  private reader: ReadableStreamDefaultReader<string> | null = null;

  constructor(
    readonly response: Response,
    private readonly controller: AbortController,
  ) {}

  /** The next message, or null when the server ended the stream; fails after `timeoutMs`. */
  async next(timeoutMs = 20_000): Promise<SseMessage | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const boundary = this.buffer.indexOf('\n\n');
      if (boundary >= 0) {
        const block = this.buffer.slice(0, boundary);
        this.buffer = this.buffer.slice(boundary + 2);
        return parseBlock(block);
      }
      if (this.done) return null;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No server-sent message within ${timeoutMs} ms`);
      // Taken on first read, so that an error answer can still be read with response.json().
      this.reader ??= this.response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`No server-sent message within ${timeoutMs} ms`)), left);
        }),
      ]).finally(() => clearTimeout(timer));
      if (chunk.done) this.done = true;
      else this.buffer += chunk.value;
    }
  }

  /** The data of the next `event: location`, skipping comments; null when the stream ended. */
  async nextLocation(timeoutMs = 20_000): Promise<Record<string, unknown> | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const message = await this.next(Math.max(1, deadline - Date.now()));
      if (message === null) return null;
      if ('event' in message && message.event === 'location') {
        return JSON.parse(message.data) as Record<string, unknown>;
      }
    }
  }

  /** Waits until the server ends the stream, skipping what comes before. */
  async waitForEnd(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.next(Math.max(1, deadline - Date.now()))) !== null) {
      // skip
    }
  }

  /** Disconnects, as a closed browser tab does. */
  abort(): void {
    this.controller.abort();
  }
}

function parseBlock(block: string): SseMessage {
  let event = 'message';
  const data: string[] = [];
  const comments: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  return data.length ? { event, data: data.join('\n') } : { comment: comments.join('\n') };
}

/** Opens a driver's location stream on a listening server with a bearer token. */
export async function openLocationStream(baseUrl: string, driverId: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/drivers/location/${driverId}/stream`, {
    headers: authHeader(token),
    signal: controller.signal,
  });
  return new SseReader(response, controller);
}

/** Polls a condition until it holds, for what happens after a response (cleanup, delivery). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
