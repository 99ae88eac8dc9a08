import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FIREBASE_ERRORS,
  startFirebaseServer,
  type FirebaseJson,
  type FirebaseServer,
  type FirebaseServerOptions,
} from './firebase-server';

// The stand-in database checked against Firebase's REST documentation with plain fetch, so that
// tests of the Firebase link can trust it. The page of each behaviour is named in firebase-server.ts.

let firebase: FirebaseServer;

afterEach(async () => {
  await firebase?.close();
});

async function start(options: FirebaseServerOptions = {}) {
  firebase = await startFirebaseServer(options);
  return firebase;
}

/** The REST URL of a location: `/trips` → `http://127.0.0.1:PORT/trips.json?ns=NAME&...`. */
function urlOf(path: string, query: Record<string, string | number | boolean> = {}) {
  const url = new URL(`${path.replace(/\/$/, '')}.json`, firebase.origin);
  url.searchParams.set('ns', firebase.namespace);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, String(value));
  return url.toString();
}

type CallOptions = { query?: Record<string, string | number | boolean>; headers?: Record<string, string> };

async function call(method: string, path: string, body?: unknown, { query, headers }: CallOptions = {}) {
  const response = await fetch(urlOf(path, query), {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: (text === '' ? undefined : JSON.parse(text)) as any,
  };
}

const get = (path: string, options?: CallOptions) => call('GET', path, undefined, options);

/** A query's values are JSON-encoded: `orderBy="$key"`, `startAt="b"`, `startAt=3`. */
const encoded = (query: Record<string, FirebaseJson>) =>
  Object.fromEntries(Object.entries(query).map(([name, value]) => [name, JSON.stringify(value)]));

// --- A small reader of Server-Sent Events (the EventSource format: `event:`, `data:`, blank line).

type SseEvent = { event: string; data: unknown };

function parseEvent(block: string): SseEvent {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    if (field === 'data') data.push(value);
  }
  return { event, data: JSON.parse(data.join('\n')) };
}

async function openStream(path: string, { query, headers }: CallOptions = {}) {
  const abort = new AbortController();
  const response = await fetch(urlOf(path, query), {
    headers: { Accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiting = new Set<() => void>();
  /** What came after the last complete event, and how the stream ended. */
  const state = { rest: '', ended: false, error: undefined as unknown };
  void (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        state.rest += decoder.decode(chunk, { stream: true });
        for (let end = state.rest.indexOf('\n\n'); end !== -1; end = state.rest.indexOf('\n\n')) {
          events.push(parseEvent(state.rest.slice(0, end)));
          state.rest = state.rest.slice(end + 2);
        }
        waiting.forEach((wake) => wake());
      }
    } catch (error) {
      state.error = error;
    } finally {
      state.ended = true;
      waiting.forEach((wake) => wake());
    }
  })();

  return {
    response,
    state,
    close: () => abort.abort(),
    /** The next event, or null once the stream has ended. */
    async next(timeoutMs = 2000): Promise<SseEvent | null> {
      const deadline = Date.now() + timeoutMs;
      while (events.length === 0 && !state.ended) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error(`No event on ${path} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            waiting.delete(wake);
            resolve();
          };
          const timer = setTimeout(wake, remaining);
          waiting.add(wake);
        });
      }
      return events.shift() ?? null;
    },
    /** Nothing arrives within the time given. */
    async expectQuiet(ms = 150) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      expect(events).toEqual([]);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('reading and writing', () => {
  it('sets with PUT, updates named children with PATCH and removes with DELETE, as Saving Data shows', async () => {
    await start();
    const alan = { name: 'Alan Turing', birthday: 'June 23, 1912' };
    const put = await call('PUT', '/fireblog/users', { alanisawesome: alan });
    expect(put).toMatchObject({ status: 200, json: { alanisawesome: alan } });
    expect((await get('/fireblog/users/alanisawesome/name')).json).toBe('Alan Turing');

    const patch = await call('PATCH', '/fireblog/users/alanisawesome', { nickname: 'Alan The Machine' });
    expect(patch).toMatchObject({ status: 200, json: { nickname: 'Alan The Machine' } });
    expect((await get('/fireblog/users/alanisawesome')).json).toEqual({
      ...alan,
      nickname: 'Alan The Machine',
    });

    // A multi-path update reaches several locations, leaving their siblings alone.
    await call('PATCH', '/fireblog/users', {
      'alanisawesome/nickname': 'Alan',
      'gracehop/nickname': 'Amazing Grace',
    });
    expect((await get('/fireblog/users')).json).toEqual({
      alanisawesome: { ...alan, nickname: 'Alan' },
      gracehop: { nickname: 'Amazing Grace' },
    });
    // An object as a PATCH value replaces that child whole.
    await call('PATCH', '/fireblog/users', { alanisawesome: { nickname: 'Alan' } });
    expect((await get('/fireblog/users/alanisawesome')).json).toEqual({ nickname: 'Alan' });
    // Overlapping paths in one PATCH are refused.
    expect((await call('PATCH', '/fireblog/users', { gracehop: 1, 'gracehop/x': 2 })).status).toBe(400);

    const removed = await call('DELETE', '/fireblog/users/alanisawesome');
    expect(removed).toMatchObject({ status: 200, text: 'null' });
    expect((await get('/fireblog/users')).json).toEqual({ gracehop: { nickname: 'Amazing Grace' } });
    expect((await get('/nothing/here')).json).toBeNull();
  });

  it('drops null and empty children, and a parent left empty with them', async () => {
    await start();
    await call('PUT', '/a', { b: { c: 1 }, d: {}, e: null, f: { g: null } });
    expect((await get('/a')).json).toEqual({ b: { c: 1 } });
    await call('PUT', '/a/b/c', null);
    expect((await get('/a')).json).toBeNull();
    expect((await get('/')).json).toBeNull();
    await call('PUT', '/leaf', 5);
    await call('PUT', '/leaf/child', 'x'); // writing beneath a leaf replaces it
    expect((await get('/leaf')).json).toEqual({ child: 'x' });
  });

  it('stores arrays as integer keys and reads them back as arrays while more than half are present', async () => {
    await start();
    await call('PUT', '/letters', ['a', 'b', 'c', 'd', 'e']);
    expect((await get('/letters')).json).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect((await get('/letters/2')).json).toBe('c');
    for (const index of [0, 1, 3]) await call('DELETE', `/letters/${index}`);
    expect((await get('/letters')).json).toEqual({ 2: 'c', 4: 'e' });
    await call('PUT', '/sparse', { 0: 'a', 2: 'c' });
    expect((await get('/sparse')).json).toEqual(['a', null, 'c']);
  });

  it('refuses keys with . $ # [ ] / or control characters, in the path or in the data', async () => {
    await start();
    for (const path of ['/a.b', '/a$b', '/a%23b', '/a%5Bb', '/a%5Db', '/a%01b']) {
      const answer = await call('PUT', path, 1);
      expect(answer.status, path).toBe(400);
      expect(typeof answer.json.error).toBe('string');
    }
    for (const key of ['a.b', 'a$b', 'a#b', 'a[b', 'a]b', 'a/b', 'a\u0001b', 'a\u007fb']) {
      expect((await call('PUT', '/x', { ok: 1, nested: { [key]: 1 } })).status, key).toBe(400);
    }
    expect((await get('/x')).json).toBeNull();
    expect((await call('PUT', '/x', undefined)).status).toBe(400);
    const unparsable = await fetch(urlOf('/x'), { method: 'PUT', body: '{nope' });
    expect(unparsable.status).toBe(400);
  });

  it('answers print=silent with 204 and print=pretty with indented JSON', async () => {
    await start();
    const silent = await call('PUT', '/a', { b: 1 }, { query: { print: 'silent' } });
    expect(silent).toMatchObject({ status: 204, text: '' });
    expect((await get('/a', { query: { print: 'silent' } })).status).toBe(204);
    expect((await get('/a', { query: { print: 'pretty' } })).text).toBe('{\n  "b": 1\n}');
    expect((await call('DELETE', '/a', undefined, { query: { print: 'silent' } })).status).toBe(204);
    expect((await get('/a', { query: { print: 'loud' } })).status).toBe(400);
  });

  it('writes server values: timestamp and increment', async () => {
    await start();
    const before = Date.now();
    await call('PUT', '/startedAt', { '.sv': 'timestamp' });
    const startedAt = (await get('/startedAt')).json as number;
    expect(startedAt).toBeGreaterThanOrEqual(before);
    expect(startedAt).toBeLessThanOrEqual(Date.now());
    await call('PUT', '/count', { '.sv': { increment: 2 } });
    await call('PATCH', '/', { count: { '.sv': { increment: 3 } } });
    expect((await get('/count')).json).toBe(5);
    expect((await call('PUT', '/x', { '.sv': 'nonsense' })).status).toBe(400);
  });

  it('pushes with POST under 20-character ids that sort in the order they were made', async () => {
    await start();
    const names: string[] = [];
    for (let count = 0; count < 50; count++) {
      const answer = await call('POST', '/messages', { n: count });
      expect(answer.status).toBe(200);
      names.push(answer.json.name);
    }
    for (const name of names) expect(name).toMatch(/^[-0-9A-Z_a-z]{20}$/);
    expect([...names].sort()).toEqual(names);
    expect(new Set(names).size).toBe(50);
    const stored = (await get('/messages')).json as Record<string, { n: number }>;
    expect(names.map((name) => stored[name]!.n)).toEqual(names.map((_name, index) => index));
  });

  it('gives ETags on request and refuses a write whose if-match is stale with 412', async () => {
    await start();
    await call('PUT', '/posts/12345/upvotes', 10);
    const read = await get('/posts/12345/upvotes', { headers: { 'X-Firebase-ETag': 'true' } });
    const etag = read.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await get('/posts/12345/upvotes')).headers.get('etag')).toBeNull();

    const written = await call('PUT', '/posts/12345/upvotes', 11, { headers: { 'if-match': etag } });
    expect(written).toMatchObject({ status: 200, json: 11 });
    const stale = await call('PUT', '/posts/12345/upvotes', 12, { headers: { 'if-match': etag } });
    expect(stale).toMatchObject({ status: 412, json: 11 });
    expect(stale.headers.get('etag')).not.toBe(etag);
    expect((await get('/posts/12345/upvotes')).json).toBe(11);

    const empty = await get('/new', { headers: { 'X-Firebase-ETag': 'true' } });
    expect(empty.headers.get('etag')).toBe('null_etag');
    expect((await call('PUT', '/new', 1, { headers: { 'if-match': 'null_etag' } })).status).toBe(200);
    expect((await get('/new', { headers: { 'if-match': 'null_etag' } })).status).toBe(400);
  });

  it('takes the method from X-HTTP-Method-Override on a POST', async () => {
    await start({ data: { a: { b: 1 } } });
    await fetch(urlOf('/a/b'), { method: 'POST', headers: { 'X-HTTP-Method-Override': 'DELETE' } });
    expect((await get('/a')).json).toBeNull();
  });
});

describe('shallow reads and queries', () => {
  const message = { message: { user: { name: 'Chris' }, body: 'Hello!' } };

  it('answers shallow=true with each child as true, and a leaf as its value', async () => {
    await start({ data: message });
    expect((await get('/message', { query: { shallow: true } })).json).toEqual({ user: true, body: true });
    expect((await get('/message/body', { query: { shallow: true } })).json).toBe('Hello!');
    await firebase.close();
    await start({ data: message, shallowLeafValues: true });
    expect((await get('/message', { query: { shallow: true } })).json).toEqual({
      user: true,
      body: 'Hello!',
    });
  });

  it('refuses shallow with filters, and filters without orderBy', async () => {
    await start({ data: message });
    const mixed = await get('/message', { query: { shallow: true, ...encoded({ orderBy: '$key' }) } });
    expect(mixed.status).toBe(400);
    expect((await get('/message', { query: { shallow: true, limitToFirst: 1 } })).status).toBe(400);
    const unordered = await get('/message', { query: { limitToFirst: 1 } });
    expect(unordered).toMatchObject({ status: 400, json: { error: expect.any(String) } });
    expect((await get('/message', { query: { orderBy: '$key' } })).status).toBe(400); // not JSON-encoded
    expect((await call('PUT', '/message', 1, { query: { shallow: true } })).status).toBe(400);
  });

  it('filters by child, nested child, key and value as the dinosaur examples do', async () => {
    const dinosaurs = {
      lambeosaurus: { height: 2.1, length: 12.5, weight: 5000, dimensions: { height: 2.1 } },
      stegosaurus: { height: 4, length: 9, weight: 2500, dimensions: { height: 4 } },
    };
    const scores = {
      bruhathkayosaurus: 55,
      lambeosaurus: 21,
      linhenykus: 80,
      pterodactyl: 93,
      stegosaurus: 5,
    };
    await start({ data: { dinosaurs, scores } });
    const keysOf = async (path: string, query: Record<string, FirebaseJson>) =>
      Object.keys((await get(path, { query: encoded(query) })).json ?? {}).sort();

    expect(await keysOf('/dinosaurs', { orderBy: 'height', startAt: 3 })).toEqual(['stegosaurus']);
    expect(await keysOf('/dinosaurs', { orderBy: 'dimensions/height', startAt: 3 })).toEqual(['stegosaurus']);
    expect(await keysOf('/dinosaurs', { orderBy: '$key', startAt: 'a', endAt: 'm' })).toEqual([
      'lambeosaurus',
    ]);
    expect(await keysOf('/dinosaurs', { orderBy: '$key', endAt: 'stegosaurus' })).toHaveLength(2); // inclusive
    expect(await keysOf('/dinosaurs', { orderBy: 'weight', limitToLast: 1 })).toEqual(['lambeosaurus']);
    expect(await keysOf('/dinosaurs', { orderBy: 'height', equalTo: 4 })).toEqual(['stegosaurus']);
    expect(await keysOf('/scores', { orderBy: '$value', startAt: 50 })).toEqual([
      'bruhathkayosaurus',
      'linhenykus',
      'pterodactyl',
    ]);
    expect(await keysOf('/scores', { orderBy: '$value', limitToLast: 2 })).toEqual([
      'linhenykus',
      'pterodactyl',
    ]);
    expect((await get('/scores', { query: encoded({ orderBy: '$key', startAt: 1 }) })).status).toBe(400);
  });

  it('orders keys with 32-bit integers first, and values null, false, true, numbers, strings, objects', async () => {
    const values = { o: { x: 1 }, s: 'a', n: 1, t: true, f: false, z: null };
    await start({ data: { keys: { b: 1, 10: 1, a: 1, 9: 1, '-1': 1 }, values: { ...values, missing: {} } } });
    const firstKeys = async (path: string, query: Record<string, FirebaseJson>, count: number) => {
      const keys: string[] = [];
      for (let limit = 1; limit <= count; limit++) {
        const page = Object.keys(
          (await get(path, { query: encoded({ ...query, limitToFirst: limit }) })).json,
        );
        keys.push(page.find((key) => !keys.includes(key))!);
      }
      return keys;
    };
    expect(await firstKeys('/keys', { orderBy: '$key' }, 5)).toEqual(['-1', '9', '10', 'a', 'b']);
    expect(await firstKeys('/values', { orderBy: '$value' }, 5)).toEqual(['f', 't', 'n', 's', 'o']);
  });

  it('pages through 1,000 children with orderBy="$key", startAt and limitToFirst', async () => {
    await start();
    const ids = Array.from({ length: 1000 }, () => firebase.pushId());
    const trips: Record<string, FirebaseJson> = {};
    for (const id of [...ids].reverse()) trips[id] = { status: 'done' };
    firebase.tree.set('/trips', trips);

    const seen: string[] = [];
    let startAt: string | undefined;
    for (;;) {
      const query = encoded({ orderBy: '$key', limitToFirst: 101, ...(startAt ? { startAt } : {}) });
      const page = (await get('/trips', { query })).json as Record<string, unknown> | null;
      const keys = Object.keys(page ?? {});
      if (startAt) expect(keys).toContain(startAt); // startAt is inclusive
      // "Filtered data is returned unordered": the client sorts.
      const sorted = [...keys].sort();
      if (keys.length > 1) expect(keys).not.toEqual(sorted);
      const fresh = sorted.filter((key) => key !== startAt);
      if (fresh.length === 0) break;
      seen.push(...fresh);
      startAt = sorted[sorted.length - 1];
    }
    expect(seen).toEqual(ids);
  });
});

describe('limits', () => {
  it('refuses a read larger than the limit with the documented text, while shallow and limits page it', async () => {
    await start({ maxReadBytes: 2_000 });
    const trips = Object.fromEntries(
      Array.from({ length: 100 }, (_item, index) => [
        `trip${String(index).padStart(3, '0')}`,
        { note: 'x'.repeat(50) },
      ]),
    );
    firebase.tree.set('/trips', trips);
    const whole = await get('/trips');
    expect(whole).toMatchObject({ status: 400, json: { error: FIREBASE_ERRORS.tooBig } });
    expect(whole.json.error).toBe(
      'Data requested exceeds the maximum size that can be accessed with a single request.',
    );
    expect(Object.keys((await get('/trips', { query: { shallow: true } })).json)).toHaveLength(100);
    const page = await get('/trips', { query: encoded({ orderBy: '$key', limitToFirst: 10 }) });
    expect(Object.keys(page.json).sort()).toEqual(Object.keys(trips).slice(0, 10));
    expect((await get('/trips/trip042')).status).toBe(200);
  });

  it('refuses a write larger than the limit unless writeSizeLimit=unlimited', async () => {
    await start({ maxWriteBytes: 100 });
    const big = { text: 'x'.repeat(200) };
    expect((await call('PUT', '/big', big)).json).toEqual({ error: FIREBASE_ERRORS.writeTooBig });
    expect((await call('PUT', '/big', big, { query: { writeSizeLimit: 'unlimited' } })).status).toBe(200);
    expect((await call('DELETE', '/big')).status).toBe(400); // a delete counts what it removes
    expect((await call('DELETE', '/big', undefined, { query: { writeSizeLimit: 'unlimited' } })).status).toBe(
      200,
    );
    expect((await call('PUT', '/small', 1, { query: { writeSizeLimit: 'huge' } })).status).toBe(400);
  });

  it('accepts timeout as 3ms, 3s or 3min up to 15min, and refuses the rest', async () => {
    await start();
    for (const timeout of ['10ms', '10s', '15min'])
      expect((await get('/', { query: { timeout } })).status).toBe(200);
    for (const timeout of ['0s', '16min', '10', 'soon'])
      expect((await get('/', { query: { timeout } })).status).toBe(400);
  });
});

describe('streaming', () => {
  it('starts with the data at the location, then sends puts and patches relative to it', async () => {
    await start({ data: { trips: { a: { status: 'new' } } } });
    const stream = await openStream('/trips');
    expect(stream.response.headers.get('content-type')).toBe('text/event-stream');
    expect(await stream.next()).toEqual({
      event: 'put',
      data: { path: '/', data: { a: { status: 'new' } } },
    });
    expect(firebase.openStreams).toBe(1);
    expect(firebase.streamPaths()).toEqual(['/trips']);

    await call('PUT', '/trips/x/status', 'assigned');
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/x/status', data: 'assigned' } });
    await call('PATCH', '/trips/x', { status: 'started', driver: 'd1' });
    expect(await stream.next()).toEqual({
      event: 'patch',
      data: { path: '/x', data: { status: 'started', driver: 'd1' } },
    });
    await call('DELETE', '/trips/a');
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/a', data: null } });
    const pushed = (await call('POST', '/trips', { status: 'new' })).json.name;
    expect(await stream.next()).toEqual({
      event: 'put',
      data: { path: `/${pushed}`, data: { status: 'new' } },
    });

    // Elsewhere: nothing.
    await call('PUT', '/drivers/d1', { name: 'Ravi' });
    await stream.expectQuiet();

    // A multi-path update from above reaching one place beneath: a put there.
    await call('PATCH', '/', { 'trips/y/status': 'new', 'drivers/d2/name': 'Asha' });
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/y/status', data: 'new' } });
    // A write above the location: the location's new data, whole, at "/".
    await call('PUT', '/', { trips: { z: { status: 'done' } }, drivers: { d3: { name: 'Mani' } } });
    expect(await stream.next()).toEqual({
      event: 'put',
      data: { path: '/', data: { z: { status: 'done' } } },
    });
    // ...and nothing when the write above leaves the location as it was.
    await call('PUT', '/', { trips: { z: { status: 'done' } } });
    await stream.expectQuiet();
    await call('DELETE', '/');
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/', data: null } });

    firebase.tree.update('/trips', { 'p/status': 'new', 'q/status': 'new' });
    expect(await stream.next()).toEqual({
      event: 'patch',
      data: { path: '/', data: { 'p/status': 'new', 'q/status': 'new' } },
    });
    stream.close();
  });

  it('follows a location beneath a write of a whole subtree at the root', async () => {
    await start();
    const stream = await openStream('/trips/t1');
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/', data: null } });
    await call('PATCH', '/', { trips: { t1: { status: 'new' }, t2: { status: 'new' } } });
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/', data: { status: 'new' } } });
    stream.close();
  });

  it('sends keep-alive events with null data', async () => {
    await start({ keepAliveMs: 50 });
    const stream = await openStream('/');
    expect((await stream.next())?.event).toBe('put');
    expect(await stream.next()).toEqual({ event: 'keep-alive', data: null });
    stream.close();
  });

  it('cancels streams with the cause as data, and closes them', async () => {
    await start({ data: { trips: { a: 1 } } });
    const trips = await openStream('/trips');
    const drivers = await openStream('/drivers');
    await trips.next();
    await drivers.next();
    expect(firebase.cancelStreams('/trips')).toBe(1);
    expect(await trips.next()).toEqual({ event: 'cancel', data: 'Permission denied.' });
    expect(await trips.next()).toBeNull();
    expect(firebase.openStreams).toBe(1);
    drivers.close();
  });

  it('cancels a stream whose first event is too large', async () => {
    await start({ maxStreamBytes: 100, data: { big: 'x'.repeat(200) } });
    const stream = await openStream('/');
    expect(await stream.next()).toEqual({ event: 'cancel', data: FIREBASE_ERRORS.streamTooBig });
    expect(await stream.next()).toBeNull();
  });

  it('drops streams mid-event', async () => {
    await start({ data: { a: 1 } });
    const stream = await openStream('/');
    await stream.next();
    expect(firebase.dropStreams()).toBe(1);
    expect(await stream.next()).toBeNull();
    expect(stream.state.error).toBeDefined();
    expect(stream.state.rest).toContain('event: put');
    expect(firebase.openStreams).toBe(0);
  });

  it('refuses to stream a filtered query other than a range of keys', async () => {
    await start();
    const response = await fetch(urlOf('/trips', encoded({ orderBy: '$key', limitToFirst: 1 })), {
      headers: { Accept: 'text/event-stream' },
    });
    expect(response.status).toBe(400);
  });

  it('streams a range of keys: only the children inside it are told', async () => {
    await start({ data: { trips: { a: { status: 'done' }, m: { status: 'new' } } } });
    const stream = await openStream('/trips', { query: encoded({ orderBy: '$key', startAt: 'k' }) });
    expect(await stream.next()).toEqual({
      event: 'put',
      data: { path: '/', data: { m: { status: 'new' } } },
    });
    await call('PUT', '/trips/a/status', 'changed');
    await stream.expectQuiet();
    await call('PUT', '/trips/m/status', 'started');
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/m/status', data: 'started' } });
    await call('PATCH', '/trips', { 'b/status': 'x', 'z/status': 'new' });
    expect(await stream.next()).toEqual({ event: 'patch', data: { path: '/', data: { 'z/status': 'new' } } });
    stream.close();
  });
});

describe('auth', () => {
  it('accepts the secret as ?auth=', async () => {
    await start({ auth: { secret: 'S' }, data: { a: 1 } });
    expect(await get('/a')).toMatchObject({ status: 401, json: { error: 'Unauthorized request.' } });
    expect((await get('/a', { query: { auth: 'wrong' } })).status).toBe(401);
    expect((await get('/a', { query: { auth: 'S' } })).json).toBe(1);
  });

  it('accepts access tokens as Authorization: Bearer or ?access_token=, and the emulator owner', async () => {
    await start({ auth: { accessTokens: new Set(['T1']), emulatorOwner: true }, data: { a: 1 } });
    expect((await get('/a', { headers: { Authorization: 'Bearer T1' } })).json).toBe(1);
    expect((await get('/a', { query: { access_token: 'T1' } })).json).toBe(1);
    expect((await get('/a', { headers: { Authorization: 'Bearer owner' } })).json).toBe(1);
    expect((await get('/a', { headers: { Authorization: 'Bearer T2' } })).status).toBe(401);
    expect((await call('PUT', '/a', 2, { query: { auth: 'T1' } })).status).toBe(401);
    firebase.grantAccessToken('T2');
    expect((await get('/a', { headers: { Authorization: 'Bearer T2' } })).status).toBe(200);
  });

  it('revokes a token: its streams get auth_revoked and close, its requests answer 401', async () => {
    await start({ auth: { accessTokens: new Set(['T1', 'T2']) }, data: { a: 1 } });
    const revoked = await openStream('/', { headers: { Authorization: 'Bearer T1' } });
    const other = await openStream('/', { query: { access_token: 'T2' } });
    await revoked.next();
    await other.next();
    firebase.revokeAccessToken('T1');
    const event = await revoked.next();
    expect(event?.event).toBe('auth_revoked');
    expect(typeof event?.data).toBe('string');
    expect(await revoked.next()).toBeNull();
    const refused = await get('/a', { headers: { Authorization: 'Bearer T1' } });
    expect(refused).toMatchObject({ status: 401, json: { error: 'Unauthorized request.' } });
    expect(firebase.openStreams).toBe(1);
    other.close();
  });

  it('answers a stream without credentials with 401 rather than events', async () => {
    await start({ auth: { secret: 'S' } });
    const response = await fetch(urlOf('/'), { headers: { Accept: 'text/event-stream' } });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'Unauthorized request.' });
  });
});

describe('redirects, namespaces and faults', () => {
  it('redirects with 307 to another host name of the same server, keeping path and namespace', async () => {
    await start({ data: { a: 1 } });
    firebase.redirectNext(1);
    const manual = await fetch(urlOf('/a', { print: 'pretty' }), { redirect: 'manual' });
    expect(manual.status).toBe(307);
    const location = new URL(manual.headers.get('location')!);
    expect(location.host).toBe(`localhost:${firebase.port}`);
    expect(location.pathname).toBe('/a.json');
    expect(location.searchParams.get('ns')).toBe(firebase.namespace);
    expect(location.searchParams.get('print')).toBe('pretty');

    firebase.redirectNext(1);
    const followed = await fetch(urlOf('/a'));
    expect(followed.status).toBe(200);
    expect(await followed.json()).toBe(1);
    expect(firebase.requests.slice(-2).map((entry) => entry.headers.host)).toEqual([
      firebase.host,
      `localhost:${firebase.port}`,
    ]);
  });

  it('redirects the first request with redirectOnce', async () => {
    await start({ redirectOnce: true });
    expect((await fetch(urlOf('/'), { redirect: 'manual' })).status).toBe(307);
    expect((await fetch(urlOf('/'), { redirect: 'manual' })).status).toBe(200);
  });

  it('takes the namespace from ?ns= or from the host name, and answers 404 for another', async () => {
    await start({ data: { a: 1 } });
    const viaHost = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const request = httpRequest({
          host: '127.0.0.1',
          port: firebase.port,
          path: '/a.json',
          headers: { host },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode!);
        });
        request.on('error', reject);
        request.end();
      });
    expect(await viaHost(`${firebase.namespace}.firebaseio.com`)).toBe(200);
    expect(await viaHost('another.firebaseio.com')).toBe(404);
    expect((await fetch(`${firebase.origin}/a.json?ns=another`)).status).toBe(404);
    expect((await fetch(`${firebase.origin}/a`)).status).toBe(404); // no .json
  });

  it('fails the next requests on demand, then answers again', async () => {
    await start({ data: { a: 1 } });
    firebase.failNext(503, { error: 'Service Unavailable' }, 2);
    expect((await get('/a')).status).toBe(503);
    expect(await get('/a')).toMatchObject({ status: 503, json: { error: 'Service Unavailable' } });
    expect((await get('/a')).json).toBe(1);
  });

  it('holds requests and stream events while paused', async () => {
    await start({ data: { a: 1 } });
    const stream = await openStream('/a');
    await stream.next();
    firebase.pause();
    let answered = false;
    const pending = get('/a').then((answer) => {
      answered = true;
      return answer;
    });
    firebase.tree.set('/a', 2);
    await sleep(150);
    expect(answered).toBe(false);
    await stream.expectQuiet(0);
    firebase.resume();
    expect((await pending).json).toBe(2);
    expect(await stream.next()).toEqual({ event: 'put', data: { path: '/', data: 2 } });
    stream.close();
  });

  it('logs what each request sent', async () => {
    await start();
    await call(
      'PATCH',
      '/trips/t1',
      { status: 'new' },
      { query: { print: 'silent' }, headers: { 'X-Test': 'yes' } },
    );
    expect(firebase.requests.at(-1)).toMatchObject({
      method: 'PATCH',
      path: '/trips/t1.json',
      query: { ns: firebase.namespace, print: 'silent' },
      headers: { 'x-test': 'yes' },
      body: '{"status":"new"}',
    });
  });
});
