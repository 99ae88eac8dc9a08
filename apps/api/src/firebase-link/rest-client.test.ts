import { afterEach, describe, expect, it } from 'vitest';
import {
  startFirebaseServer,
  type FirebaseServer,
  type FirebaseServerOptions,
} from '../../test/firebase-server';
import {
  compareKeys,
  FirebaseRequestError,
  FirebaseRestClient,
  resolveAddress,
  type StreamEvent,
} from './rest-client';

const servers: FirebaseServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(options: FirebaseServerOptions = {}) {
  const server = await startFirebaseServer(options);
  servers.push(server);
  return server;
}

const clientOf = (
  server: FirebaseServer,
  credentials: ConstructorParameters<typeof FirebaseRestClient>[1] = { kind: 'none' },
) => new FirebaseRestClient(resolveAddress(server.url), credentials);

/** Reads a stream's events until `until` says enough, then stops following. */
async function collect(stream: AsyncGenerator<StreamEvent>, until: (events: StreamEvent[]) => boolean) {
  const events: StreamEvent[] = [];
  for await (const event of stream) {
    events.push(event);
    if (until(events)) break;
  }
  return events;
}

describe('where a database URL leads', () => {
  it('reads the namespace as Firebase SDKs do, and honours the emulator host', () => {
    expect(resolveAddress('https://bmet-prod-default-rtdb.asia-southeast1.firebasedatabase.app')).toEqual({
      origin: 'https://bmet-prod-default-rtdb.asia-southeast1.firebasedatabase.app',
      namespace: null,
    });
    expect(resolveAddress('https://bmet-prod-default-rtdb.firebaseio.com', '127.0.0.1:9000')).toEqual({
      origin: 'http://127.0.0.1:9000',
      namespace: 'bmet-prod-default-rtdb',
    });
    expect(resolveAddress('http://127.0.0.1:9000/?ns=demo')).toEqual({
      origin: 'http://127.0.0.1:9000',
      namespace: 'demo',
    });
    expect(() => resolveAddress('http://db.example.in/?ns=demo')).toThrow(/https/);
  });

  it('orders keys as Firebase does: 32-bit integers first, as numbers', () => {
    expect(['b', '10', '-Nx', '2', 'a', '3000000000'].sort(compareKeys)).toEqual([
      '2',
      '10',
      '-Nx',
      '3000000000',
      'a',
      'b',
    ]);
  });
});

describe('reading', () => {
  it('sends the database secret as auth=, and the namespace', async () => {
    const server = await serve({
      auth: { secret: 'the-secret' },
      data: { state: { goa: { mini: { per_km: 12 } } } },
    });
    expect(await clientOf(server, { kind: 'secret', secret: 'the-secret' }).get('state/goa')).toEqual({
      mini: { per_km: 12 },
    });
    await expect(clientOf(server, { kind: 'secret', secret: 'wrong' }).get('state')).rejects.toMatchObject({
      status: 401,
    });
    expect(server.requests.at(-1)!.query).toMatchObject({ ns: server.namespace, auth: 'wrong' });
  });

  it("sends what Firebase's SDKs send to the emulator", async () => {
    const server = await serve({ auth: { emulatorOwner: true }, data: { a: 1 } });
    expect(await clientOf(server, { kind: 'emulator' }).get('a')).toBe(1);
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer owner');
  });

  it('pages through a large node by key, and halves a page the server refuses for its size', async () => {
    const trips = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `trip-${String(i).padStart(4, '0')}`,
        { title: `Customer ${i}`, price: String(i) },
      ]),
    );
    const server = await serve({ data: { trips }, maxReadBytes: 20_000 });
    const client = clientOf(server);
    await expect(client.get('trips')).rejects.toSatisfy(
      (error) => error instanceof FirebaseRequestError && error.tooLarge,
    );
    const seen: string[] = [];
    for await (const page of client.pages('trips', { pageSize: 500 }))
      seen.push(...page.map((entry) => entry.key));
    expect(seen).toEqual(Object.keys(trips));
    // Never the same too-large read twice.
    const reads = server.requests
      .filter((request) => request.path === '/trips.json')
      .map((request) => JSON.stringify(request.query));
    const refusedAgain = reads.filter((read, i) => reads.indexOf(read) !== i);
    expect(refusedAgain).toEqual([]);
  });

  it('pages from a key on', async () => {
    const server = await serve({ data: { trips: { a: 1, b: 2, c: 3, d: 4, e: 5 } } });
    const keys: string[] = [];
    for await (const page of clientOf(server).pages('trips', { pageSize: 2, from: 'c' }))
      keys.push(...page.map((entry) => entry.key));
    expect(keys).toEqual(['c', 'd', 'e']);
  });

  it('lists the keys of a node without reading its children', async () => {
    const server = await serve({ data: { driver: { d1: { name: 'A' }, d2: { name: 'B' } } } });
    expect(await clientOf(server).shallowKeys('driver')).toEqual(['d1', 'd2']);
    expect(server.requests.at(-1)!.query.shallow).toBe('true');
  });

  it('follows a 307 redirect with the same method, body and credentials', async () => {
    const server = await serve({ auth: { secret: 's3' }, data: {} });
    server.redirectNext(1);
    await clientOf(server, { kind: 'secret', secret: 's3' }).put('state/goa/mini', { per_km: 14 });
    expect(server.tree.get('state/goa/mini')).toEqual({ per_km: 14 });
    const [redirected, followed] = server.requests.slice(-2);
    expect(redirected!.method).toBe('PUT');
    expect(followed).toMatchObject({ method: 'PUT', query: expect.objectContaining({ auth: 's3' }) });
  });
});

describe('writing', () => {
  it('sets, updates and removes, silently', async () => {
    const server = await serve({ data: {} });
    const client = clientOf(server);
    await client.put('city_dealer/u1', { name: 'Pune Motors', state: 'maharashtra' });
    await client.patch('city_dealer/u1', { name: 'Pune Motors Ltd' });
    expect(server.tree.get('city_dealer/u1')).toEqual({ name: 'Pune Motors Ltd', state: 'maharashtra' });
    await client.delete('city_dealer/u1');
    expect(server.tree.get('city_dealer')).toBeNull();
    expect(server.requests.every((request) => request.query.print === 'silent')).toBe(true);
  });
});

describe('following', () => {
  it('answers the whole location first, then each change with its path relative to it', async () => {
    const server = await serve({ data: { trips: { t1: { title: 'Asha', tripStarted: false } } } });
    const client = clientOf(server);
    const stream = client.follow('trips');
    const first = await stream.next();
    expect(first.value).toEqual({
      event: 'put',
      path: '/',
      data: { t1: { title: 'Asha', tripStarted: false } },
    });
    server.tree.set('trips/t1/tripStarted', true);
    server.tree.update('trips', { t2: { title: 'Ravi' } });
    const events = await collect(stream, (seen) => seen.length >= 2);
    expect(events).toEqual([
      { event: 'put', path: '/t1/tripStarted', data: true },
      { event: 'patch', path: '/', data: { t2: { title: 'Ravi' } } },
    ]);
  });

  it('passes keep-alive, cancel and auth_revoked on, and counts a damaged event as malformed', async () => {
    const tokens = new Set(['token-1']);
    const server = await serve({ auth: { accessTokens: tokens }, keepAliveMs: 50, data: { a: 1 } });
    const client = new FirebaseRestClient(resolveAddress(server.url), { kind: 'none' }, (url, init) =>
      fetch(url, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: 'Bearer token-1' },
      }),
    );
    const stream = client.follow('a');
    expect((await stream.next()).value).toMatchObject({ event: 'put', path: '/' });
    expect((await stream.next()).value).toEqual({ event: 'keep-alive' });
    server.revokeAccessToken('token-1');
    const events = await collect(stream, (seen) => seen.some((event) => event.event === 'auth_revoked'));
    expect(events.at(-1)).toMatchObject({ event: 'auth_revoked' });
  });

  it('ends when the server drops the stream in the middle of an event', async () => {
    const server = await serve({ data: { a: 1 } });
    const stream = clientOf(server).follow('a');
    await stream.next();
    server.dropStreams();
    // The stream ends or fails (either way the link reconnects); half an event is never answered.
    const after: StreamEvent[] = [];
    try {
      for await (const event of stream) after.push(event);
    } catch (error) {
      expect(error).toBeInstanceOf(Error);
    }
    expect(after.filter((event) => event.event !== 'keep-alive')).toEqual([]);
  });
});
