import { GoogleAuth } from 'google-auth-library';
import { readEventStream, type StreamEvent } from './event-stream';

export type { StreamEvent } from './event-stream';

/**
 * A client of the Firebase Realtime Database REST protocol, as Firebase documents it ("Database
 * REST API" and "Streaming from the REST API"): reads (`GET path.json`, with `shallow` and the
 * `orderBy="$key"`/`startAt`/`limitToFirst` paging of a large node), follows (`Accept:
 * text/event-stream`: `put`, `patch`, `keep-alive`, `cancel`, `auth_revoked`), writes (`PUT`,
 * `PATCH`, `DELETE`), and follows 307 redirects with the same method, body and credentials.
 *
 * The REST protocol rather than the Admin SDK's WebSocket one: it is documented, so the link can
 * be tested against a server written from that documentation.
 */

/** Scopes of an OAuth2 access token for the Realtime Database, as Firebase documents them. */
export const DATABASE_SCOPES = [
  'https://www.googleapis.com/auth/userinfo.email',
  'https://www.googleapis.com/auth/firebase.database',
];
const MAX_REDIRECTS = 5;
/** Firebase sends keep-alive every 30 s: a stream silent for this long is taken as dead. */
export const STREAM_SILENCE_MS = 90_000;

export type FirebaseCredentials =
  | { kind: 'secret'; secret: string }
  | { kind: 'service-account'; keyFile: string }
  | { kind: 'emulator' }
  | { kind: 'none' };

export type FirebaseAddress = {
  /** Where requests go: the database's origin, or the emulator's. */
  origin: string;
  /** The `ns` query parameter (the emulator and loopback servers), or null. */
  namespace: string | null;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Where a database URL leads. With `FIREBASE_DATABASE_EMULATOR_HOST` (as Firebase's SDKs honour
 * it) requests go to that host over plain HTTP, for the namespace named by the URL's `ns` or its
 * database name. A plain `http://` URL is accepted on a loopback address only.
 */
export function resolveAddress(databaseUrl: string, emulatorHost?: string): FirebaseAddress {
  const url = new URL(databaseUrl);
  const namespace = url.searchParams.get('ns') ?? url.hostname.split('.')[0] ?? null;
  if (emulatorHost) return { origin: `http://${emulatorHost}`, namespace };
  if (url.protocol === 'http:') {
    if (!LOOPBACK.has(url.hostname)) {
      throw new Error(
        `${databaseUrl}: a Firebase database is reached over https (http only on a loopback address)`,
      );
    }
    return { origin: url.origin, namespace: url.searchParams.get('ns') };
  }
  if (url.protocol !== 'https:') throw new Error(`${databaseUrl}: not an https URL`);
  return { origin: url.origin, namespace: null };
}

export class FirebaseRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  /** The server refused a read for its size: it must be paged, never asked again as is. */
  get tooLarge(): boolean {
    return this.status === 400 && /exceeds the maximum size|too large/i.test(this.message);
  }

  get unauthorized(): boolean {
    return this.status === 401 || this.status === 403;
  }
}

/** A request's query; the values of the filters are JSON (`orderBy="$key"`, `startAt="-N1"`). */
export type Query = Record<string, string | number | boolean>;
const JSON_PARAMETERS = new Set(['orderBy', 'startAt', 'endAt', 'equalTo']);

function queryString(query: Query): string {
  return Object.entries(query)
    .map(([name, value]) => {
      const text = JSON_PARAMETERS.has(name) ? JSON.stringify(value) : String(value);
      return `${name}=${encodeURIComponent(text)}`;
    })
    .join('&');
}

/** Firebase's order of keys: those that are 32-bit integers first, as numbers; then the others, as strings. */
export function compareKeys(a: string, b: string): number {
  const integer = (key: string) =>
    /^-?(0|[1-9]\d{0,9})$/.test(key) && Math.abs(Number(key)) <= 2 ** 31 - 1 ? Number(key) : null;
  const x = integer(a);
  const y = integer(b);
  if (x !== null && y !== null) return x - y;
  if (x !== null) return -1;
  if (y !== null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

export class FirebaseRestClient {
  private readonly auth: GoogleAuth | null = null;
  private staleToken = false;

  constructor(
    readonly address: FirebaseAddress,
    private readonly credentials: FirebaseCredentials,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    if (credentials.kind === 'service-account') {
      this.auth = new GoogleAuth({ keyFile: credentials.keyFile, scopes: DATABASE_SCOPES });
    }
  }

  /** The access token was refused (401, auth_revoked): the next request asks Google for a fresh one. */
  refreshCredentials(): void {
    this.staleToken = true;
  }

  private async authorization(): Promise<{ headers: Record<string, string>; query: Query }> {
    switch (this.credentials.kind) {
      case 'secret':
        return { headers: {}, query: { auth: this.credentials.secret } };
      case 'emulator':
        // What Firebase's SDKs send to the emulator.
        return { headers: { authorization: 'Bearer owner' }, query: {} };
      case 'service-account': {
        // google-auth-library keeps the token and refreshes it before it expires.
        const client = await this.auth!.getClient();
        if (this.staleToken) {
          client.credentials = {};
          this.staleToken = false;
        }
        const { token } = await client.getAccessToken();
        if (!token)
          throw new FirebaseRequestError(401, 'Google gave no access token for the service account');
        return { headers: { authorization: `Bearer ${token}` }, query: {} };
      }
      default:
        return { headers: {}, query: {} };
    }
  }

  private async url(path: string, query: Query): Promise<{ url: string; headers: Record<string, string> }> {
    const auth = await this.authorization();
    const segments = path.split('/').filter(Boolean).map(encodeURIComponent).join('/');
    const all: Query = {
      ...query,
      ...auth.query,
      ...(this.address.namespace ? { ns: this.address.namespace } : {}),
    };
    const search = queryString(all);
    return {
      url: `${this.address.origin}/${segments}.json${search ? `?${search}` : ''}`,
      headers: auth.headers,
    };
  }

  /** Sends a request, following 307 redirects with the same method, body and credentials. */
  private async send(
    method: string,
    path: string,
    query: Query,
    init: { body?: string; accept?: string; signal?: AbortSignal } = {},
  ): Promise<Response> {
    const target = await this.url(path, query);
    const { headers } = target;
    let { url } = target;
    for (let hop = 0; ; hop++) {
      const response = await this.fetchImpl(url, {
        method,
        body: init.body,
        redirect: 'manual',
        signal: init.signal,
        headers: {
          ...headers,
          ...(init.accept ? { accept: init.accept } : {}),
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
      });
      if (response.status !== 307 && response.status !== 308) return response;
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location || hop >= MAX_REDIRECTS) {
        throw new FirebaseRequestError(response.status, `redirected ${hop + 1} times without an end`);
      }
      url = new URL(location, url).toString();
    }
  }

  private async answer(response: Response): Promise<unknown> {
    const text = await response.text();
    if (!response.ok) {
      let message = text;
      try {
        const body = JSON.parse(text) as { error?: unknown };
        if (typeof body.error === 'string') message = body.error;
      } catch {
        // Not JSON: the text is the message.
      }
      if (response.status === 401 || response.status === 403) this.refreshCredentials();
      throw new FirebaseRequestError(response.status, message.slice(0, 500) || response.statusText);
    }
    return text ? JSON.parse(text) : null;
  }

  async get(path: string, query: Query = {}, signal?: AbortSignal): Promise<unknown> {
    return this.answer(await this.send('GET', path, query, { signal }));
  }

  /** The keys of a node's children (`shallow=true`): no child's contents are read. */
  async shallowKeys(path: string, signal?: AbortSignal): Promise<string[]> {
    const value = await this.get(path, { shallow: true }, signal);
    if (value === null || typeof value !== 'object') return [];
    return Object.keys(value).sort(compareKeys);
  }

  /**
   * A large node's children in pages, in key order, from a key on (`orderBy="$key"`, `startAt`,
   * `limitToFirst`). A page the server refuses for its size is asked again at half the size; a
   * single child too large to read at all is answered as `tooLarge`.
   */
  async *pages(
    path: string,
    options: { pageSize?: number; from?: string; signal?: AbortSignal } = {},
  ): AsyncGenerator<{ key: string; value: unknown; tooLarge?: true }[]> {
    let size = options.pageSize ?? 1000;
    let after = options.from ?? null;
    let inclusive = options.from !== undefined;
    for (;;) {
      const limit = size + (after !== null && !inclusive ? 1 : 0);
      const query: Query = {
        orderBy: '$key',
        limitToFirst: limit,
        ...(after !== null ? { startAt: after } : {}),
      };
      let value: unknown;
      try {
        value = await this.get(path, query, options.signal);
      } catch (error) {
        if (!(error instanceof FirebaseRequestError) || !error.tooLarge) throw error;
        if (size > 1) {
          size = Math.max(1, Math.floor(size / 2));
          continue;
        }
        // One child alone is too large: name it and go past it.
        const [key] = (await this.shallowKeysFrom(path, after, inclusive)).slice(0, 1);
        if (key === undefined) return;
        yield [{ key, value: null, tooLarge: true }];
        after = key;
        inclusive = false;
        continue;
      }
      const entries =
        value && typeof value === 'object' ? Object.entries(value as Record<string, unknown>) : [];
      entries.sort(([a], [b]) => compareKeys(a, b));
      const page = after !== null && !inclusive ? entries.filter(([key]) => key !== after) : entries;
      if (page.length > 0) yield page.map(([key, child]) => ({ key, value: child }));
      if (entries.length < limit) return;
      after = entries[entries.length - 1]![0];
      inclusive = false;
      size = Math.min(options.pageSize ?? 1000, size * 2);
    }
  }

  private async shallowKeysFrom(path: string, after: string | null, inclusive: boolean): Promise<string[]> {
    const keys = await this.shallowKeys(path);
    if (after === null) return keys;
    return keys.filter((key) => (inclusive ? compareKeys(key, after) >= 0 : compareKeys(key, after) > 0));
  }

  async put(path: string, value: unknown): Promise<void> {
    await this.answer(await this.send('PUT', path, { print: 'silent' }, { body: JSON.stringify(value) }));
  }

  async patch(path: string, value: Record<string, unknown>): Promise<void> {
    await this.answer(await this.send('PATCH', path, { print: 'silent' }, { body: JSON.stringify(value) }));
  }

  async delete(path: string): Promise<void> {
    await this.answer(await this.send('DELETE', path, { print: 'silent' }));
  }

  /**
   * Follows a location (or, with a query, a range of its keys): the server's events as they come,
   * starting with a `put` of the whole location (or range) at path "/". Ends (returns) when the server closes the stream; throws when it cannot be
   * opened, or stays silent longer than keep-alives allow.
   */
  async *follow(path: string, signal?: AbortSignal, query: Query = {}): AsyncGenerator<StreamEvent> {
    const silence = new AbortController();
    const both = signal ? AbortSignal.any([signal, silence.signal]) : silence.signal;
    const response = await this.send('GET', path, query, { accept: 'text/event-stream', signal: both });
    if (!response.ok || !response.body) {
      await this.answer(response);
      throw new FirebaseRequestError(response.status, 'the stream did not open');
    }
    let timer = setTimeout(() => silence.abort(), STREAM_SILENCE_MS);
    const heard = () => {
      clearTimeout(timer);
      timer = setTimeout(() => silence.abort(), STREAM_SILENCE_MS);
    };
    try {
      yield* readEventStream(response.body, heard);
    } catch (error) {
      if (silence.signal.aborted && !signal?.aborted) {
        throw new FirebaseRequestError(0, `the stream was silent for ${STREAM_SILENCE_MS / 1000} s`);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }
}
