import { createHash, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A stand-in for Firebase's Realtime Database, for tests of the Firebase link: no Firebase server
 * is reachable from here and the emulator cannot be downloaded. It is written from Firebase's
 * public REST documentation, and each behaviour names the page it comes from:
 *   [reference] Database REST API reference   firebase.google.com/docs/reference/rest/database
 *   [retrieve]  REST guide "Retrieving Data"  firebase.google.com/docs/database/rest/retrieve-data
 *   [save]      REST guide "Saving Data"      firebase.google.com/docs/database/rest/save-data
 *   [auth]      "Authenticate REST Requests"  firebase.google.com/docs/database/rest/auth
 *   [structure] "Structure Your Database"     firebase.google.com/docs/database/web/structure-data
 *   [arrays]    Firebase blog, "Best Practices: Arrays in Firebase" (2014)
 *   [push-ids]  Firebase blog, "The 2^120 Ways to Ensure Unique Identifiers" (2015)
 * Where the documentation is silent (the wording of most error messages, for one) the choice is
 * marked as this server's own. Deliberately left out: security rules and .indexOn, priorities
 * (`.priority` is accepted in writes and dropped), and streaming any filtered query but a range of
 * keys (`orderBy="$key"` with `startAt` and/or `endAt`), which is streamed as the unfiltered one is,
 * each event reduced to the children inside the range (this server's own reading: the
 * documentation does not describe filtered streams).
 */

type Leaf = string | number | boolean;
type Branch = { [key: string]: TreeNode };
type TreeNode = Leaf | Branch;
type Path = string[];

/** A value as JSON carries it: what the server reads and answers. */
export type FirebaseJson = null | Leaf | FirebaseJson[] | { [key: string]: FirebaseJson };

export type FirebaseAuthOptions = {
  /** The database secret, accepted as `?auth=` [retrieve]. */
  secret?: string;
  /** OAuth2 access tokens, accepted as `Authorization: Bearer` or `?access_token=` [auth]; the set is live. */
  accessTokens?: Set<string>;
  /** Accept `Authorization: Bearer owner`, as the database emulator does for admin clients. */
  emulatorOwner?: boolean;
};

export type FirebaseServerOptions = {
  /** The database name, addressed as `?ns=NAME` or as the host `NAME.firebaseio.com`. */
  namespace?: string;
  /** Without it every request is allowed, like a database whose rules allow public access. */
  auth?: FirebaseAuthOptions;
  /** The data the database starts with. */
  data?: FirebaseJson;
  /** A GET whose answer is larger (JSON bytes) is refused as too big. */
  maxReadBytes?: number;
  /** A write (or the subtree a delete removes) larger than this is refused, unless writeSizeLimit=unlimited. */
  maxWriteBytes?: number;
  /** A stream whose first event would be larger is cancelled as too large. */
  maxStreamBytes?: number;
  /** Refuse to stream a range of keys too, as a server that streams no filtered query would. */
  noRangeStreams?: boolean;
  /** Interval of `keep-alive` events on open streams (30 s unless given). */
  keepAliveMs?: number;
  /** Answer the first request with a 307 redirect, as Firebase does for a moved database. */
  redirectOnce?: boolean;
  /**
   * A shallow read answers `true` for every child, as the example in [retrieve] shows; with this,
   * leaf children keep their value instead (for clients that must cope with either).
   */
  shallowLeafValues?: boolean;
};

export type RecordedRequest = {
  method: string;
  /** The URL's path as sent, e.g. `/trips/-Nabc.json`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
};

type Stream = {
  location: Path;
  res: ServerResponse;
  /** The access token that opened it, so that revoking the token reaches it. */
  credential: string | null;
  keepAlive: NodeJS.Timeout;
  /** Events held while the server is paused. */
  held: string[];
  /** A stream of a range of keys: only the children inside it are told. */
  range?: { startAt?: string; endAt?: string };
};

/** An answer other than 200, with Firebase's `{"error": "..."}` body. */
class FirebaseHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body?: FirebaseJson,
    readonly etag?: string,
  ) {
    super(message);
  }
}

const badRequest = (message: string) => new FirebaseHttpError(400, message);

/** Error texts Firebase documents word for word. */
export const FIREBASE_ERRORS = {
  unauthorized: 'Unauthorized request.',
  tooBig: 'Data requested exceeds the maximum size that can be accessed with a single request.',
  writeTooBig: 'Data to write exceeds the maximum size that can be modified with a single request.',
  streamTooBig: 'The specified payload is too large, please request a location with less data.',
  permissionDenied: 'Permission denied.',
} as const;

// --- Keys and paths ------------------------------------------------------------------------------

/** Keys are at most 768 bytes of UTF-8 and contain none of . $ # [ ] / nor ASCII controls [structure]. */
function checkKey(key: string): void {
  const forbidden = [...key].some((char) => {
    const code = char.charCodeAt(0);
    return '.$#[]/'.includes(char) || code < 32 || code === 127;
  });
  if (key === '' || forbidden) {
    throw badRequest(
      `Invalid key "${key}": keys cannot be empty or contain . $ # [ ] / or control characters.`,
    );
  }
  if (Buffer.byteLength(key) > 768) throw badRequest(`Invalid key: longer than 768 bytes.`);
}

/** Data nests at most 32 levels deep [structure]. */
const MAX_DEPTH = 32;

/** `/users/jack/name.json` (or `/users/jack/name/.json`, as [reference] writes it) to its keys. */
function parseLocation(pathname: string): Path {
  if (!pathname.endsWith('.json')) {
    throw new FirebaseHttpError(404, 'Not found: the REST API answers URLs that end in .json.');
  }
  const keys = pathname
    .slice(0, -'.json'.length)
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        throw badRequest(`Invalid path: "${segment}" is not URL-encoded correctly.`);
      }
    });
  keys.forEach(checkKey);
  if (keys.length > MAX_DEPTH) throw badRequest('Invalid path: deeper than 32 levels.');
  return keys;
}

/** A path written as a string (`a/b`, `/a/b`, `/`) to its keys. */
function keysOf(path: string): Path {
  const keys = path.split('/').filter((segment) => segment !== '');
  keys.forEach(checkKey);
  return keys;
}

const pathText = (keys: Path) => `/${keys.join('/')}`;

const isPrefix = (prefix: Path, path: Path) =>
  prefix.length <= path.length && prefix.every((key, index) => path[index] === key);

// --- The tree ------------------------------------------------------------------------------------

const isBranch = (node: TreeNode | null | undefined): node is Branch =>
  typeof node === 'object' && node !== null;

/** Objects without a prototype, so that `__proto__` is a key like any other. */
const newBranch = (): Branch => Object.create(null) as Branch;

/** Whether a branch holds a child. */
function holdsAny(branch: Branch): boolean {
  for (const key in branch) if (key) return true;
  return false;
}

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function getAt(node: TreeNode | null, path: Path): TreeNode | null {
  let current = node;
  for (const key of path) {
    if (!isBranch(current)) return null;
    current = current[key] ?? null;
  }
  return current;
}

/**
 * Writes a value at a path and returns the new root. Writing null deletes, and a branch left
 * without children disappears with it, up to the root [save]; writing beneath a leaf replaces it.
 */
function setAt(node: TreeNode | null, path: Path, value: TreeNode | null, depth = 0): TreeNode | null {
  if (depth === path.length) return value;
  const key = path[depth]!;
  const branch = isBranch(node) ? node : newBranch();
  const child = setAt(branch[key] ?? null, path, value, depth + 1);
  // A branch given a child holds one: only a removal asks whether any is left (listing the keys of
  // a node of ten thousand drivers at every position written would cost more than the rest).
  if (child !== null) {
    branch[key] = child;
    return branch;
  }
  delete branch[key];
  return holdsAny(branch) ? branch : null;
}

/**
 * What is stored for a written value: arrays become objects keyed by index [arrays], null and
 * empty children vanish, server values are resolved against the current data [reference], and a
 * `.value`/`.priority` pair keeps its value (priorities are not kept here).
 */
function normalize(value: unknown, current: TreeNode | null, depth: number): TreeNode | null {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value !== 'object') {
    throw badRequest("Invalid data; couldn't parse JSON object, array, or value.");
  }
  if (isJsonObject(value) && '.sv' in value) return serverValue(value['.sv'], current);
  if (isJsonObject(value) && '.value' in value) return normalize(value['.value'], current, depth);
  if (depth >= MAX_DEPTH) throw badRequest('Invalid data: nested deeper than 32 levels.');
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value);
  const branch = newBranch();
  let held = false;
  for (const [key, child] of entries) {
    if (key === '.priority') continue;
    checkKey(key);
    const stored = normalize(child, isBranch(current) ? (current[key] ?? null) : null, depth + 1);
    if (stored !== null) {
      branch[key] = stored;
      held = true;
    }
  }
  return held ? branch : null;
}

/** `{".sv": "timestamp"}` and `{".sv": {"increment": n}}` [reference]. */
function serverValue(spec: unknown, current: TreeNode | null): TreeNode {
  if (spec === 'timestamp') return Date.now();
  if (isJsonObject(spec) && Object.keys(spec).length === 1 && typeof spec.increment === 'number') {
    // "If the data does not yet exist, the update will set the data to the delta value."
    return (typeof current === 'number' ? current : 0) + spec.increment;
  }
  throw badRequest('The request contains an unrecognized server value.');
}

/** A key that is a canonical non-negative 32-bit integer, as an array index. */
function arrayIndex(key: string): number | null {
  return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 2 ** 31 - 1 ? Number(key) : null;
}

/**
 * A stored node as a read answers it. "If all of the keys are integers, and more than half of the
 * keys between 0 and the maximum key in the object have non-empty values, then Firebase will
 * render it as an array" [arrays], with null in the gaps.
 */
function render(node: TreeNode | null): FirebaseJson {
  if (!isBranch(node)) return node;
  const keys = Object.keys(node);
  const indexes = keys.map(arrayIndex);
  if (indexes.every((index) => index !== null)) {
    const max = indexes.reduce<number>((highest, index) => Math.max(highest, index!), 0);
    if (2 * keys.length > max + 1) {
      const array: FirebaseJson[] = Array.from({ length: max + 1 }, () => null);
      for (const key of keys) array[Number(key)] = render(node[key]!);
      return array;
    }
  }
  const object: { [key: string]: FirebaseJson } = newBranch() as never;
  for (const key of keys) object[key] = render(node[key]!);
  return object;
}

/** Key-sorted JSON: equal data gives equal text, for ETags and change detection. */
function canonical(node: TreeNode | null): string {
  if (!isBranch(node)) return JSON.stringify(node);
  const keys = Object.keys(node).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(node[key]!)}`).join(',')}}`;
}

/** The ETag of the data at a location; "null_etag" is what a write to an empty location matches [reference]. */
function etagOf(node: TreeNode | null): string {
  return node === null ? 'null_etag' : createHash('sha1').update(canonical(node)).digest('base64');
}

// --- Queries [retrieve] ----------------------------------------------------------------------------

type Bound = string | number | boolean | null;
type Query = {
  orderBy: string;
  startAt?: Bound;
  endAt?: Bound;
  equalTo?: Bound;
  limitToFirst?: number;
  limitToLast?: number;
};

const FILTERS = ['startAt', 'endAt', 'equalTo', 'limitToFirst', 'limitToLast'] as const;

/** Keys that parse as 32-bit integers come first, in numeric order; then the rest, lexicographically. */
function compareKeys(a: string, b: string): number {
  const [ia, ib] = [a, b].map((key) =>
    /^(0|-?[1-9]\d{0,9})$/.test(key) && Math.abs(Number(key)) <= 2 ** 31 ? Number(key) : null,
  );
  if (ia != null && ib != null) return ia - ib;
  if (ia != null) return -1;
  if (ib != null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** null, then false, true, numbers ascending, strings lexicographically, objects last. */
function compareValues(a: TreeNode | null, b: TreeNode | null): number {
  const rank = (value: TreeNode | null) =>
    value === null
      ? 0
      : value === false
        ? 1
        : value === true
          ? 2
          : typeof value === 'number'
            ? 3
            : typeof value === 'string'
              ? 4
              : 5;
  const difference = rank(a) - rank(b);
  if (difference !== 0) return difference;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}

/** The query parameters of a GET; values are JSON-encoded (`orderBy="$key"&startAt="b"`). */
function parseQuery(params: URLSearchParams): Query | null {
  const present = FILTERS.filter((name) => params.has(name));
  const orderByText = params.get('orderBy');
  if (orderByText === null) {
    if (present.length > 0) {
      throw badRequest('orderBy must be defined when other query parameters are defined');
    }
    return null;
  }
  if (params.getAll('orderBy').length > 1) throw badRequest('orderBy may be given only once.');
  const orderBy = parseParam('orderBy', orderByText);
  if (typeof orderBy !== 'string') throw badRequest('orderBy must be a valid JSON encoded path');
  // A child path ("dimensions/height") or one of $key, $value, $priority.
  if (orderBy.startsWith('$') && !['$key', '$value', '$priority'].includes(orderBy)) {
    throw badRequest(`Unknown orderBy ${orderBy}.`);
  }
  if (!orderBy.startsWith('$')) keysOf(orderBy);
  const query: Query = { orderBy };
  for (const name of ['startAt', 'endAt', 'equalTo'] as const) {
    const text = params.get(name);
    if (text === null) continue;
    const bound = parseParam(name, text);
    if (typeof bound === 'object' && bound !== null) throw badRequest(`${name} must be a JSON primitive.`);
    if (orderBy === '$key' && typeof bound !== 'string') {
      throw badRequest(`When ordering by key, ${name} must be a string.`);
    }
    query[name] = bound as Bound;
  }
  for (const name of ['limitToFirst', 'limitToLast'] as const) {
    const text = params.get(name);
    if (text === null) continue;
    if (!/^[1-9]\d*$/.test(text)) throw badRequest(`${name} must be a positive integer.`);
    query[name] = Number(text);
  }
  if (query.limitToFirst !== undefined && query.limitToLast !== undefined) {
    throw badRequest('limitToFirst and limitToLast cannot be combined.');
  }
  if (query.equalTo !== undefined && (query.startAt !== undefined || query.endAt !== undefined)) {
    throw badRequest('equalTo cannot be combined with startAt or endAt.');
  }
  return query;
}

function parseParam(name: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`${name} must be JSON-encoded, e.g. ${name}="value".`);
  }
}

/**
 * The children of a node that a query selects. The answer is deliberately built in reverse of
 * the query's order: "filtered results are returned in an undefined order", and the client sorts.
 */
function runQuery(node: TreeNode | null, query: Query): TreeNode | null {
  if (!isBranch(node)) return null;
  const childPath = query.orderBy.startsWith('$') ? [] : keysOf(query.orderBy);
  const orderValue = (key: string, child: TreeNode): TreeNode | null =>
    query.orderBy === '$key'
      ? key
      : query.orderBy === '$value'
        ? child
        : query.orderBy === '$priority'
          ? null
          : getAt(child, childPath);
  const compareTo = (key: string, child: TreeNode, bound: Bound) =>
    query.orderBy === '$key'
      ? compareKeys(key, bound as string)
      : compareValues(orderValue(key, child), bound);
  let selected = Object.entries(node).filter(([key, child]) => {
    if (query.equalTo !== undefined) return compareTo(key, child, query.equalTo) === 0;
    if (query.startAt !== undefined && compareTo(key, child, query.startAt) < 0) return false;
    if (query.endAt !== undefined && compareTo(key, child, query.endAt) > 0) return false;
    return true;
  });
  selected.sort(([keyA, a], [keyB, b]) =>
    query.orderBy === '$key'
      ? compareKeys(keyA, keyB)
      : compareValues(orderValue(keyA, a), orderValue(keyB, b)) || compareKeys(keyA, keyB),
  );
  if (query.limitToFirst !== undefined) selected = selected.slice(0, query.limitToFirst);
  if (query.limitToLast !== undefined) selected = selected.slice(-query.limitToLast);
  const answer = newBranch();
  for (const [key, child] of selected.reverse()) answer[key] = child;
  return Object.keys(answer).length > 0 ? answer : null;
}

/** `shallow=true`: a leaf as it is; for a branch, each child truncated to `true` [reference]. */
function shallowOf(node: TreeNode | null, leafValues: boolean): FirebaseJson {
  if (!isBranch(node)) return node;
  const answer: { [key: string]: FirebaseJson } = newBranch() as never;
  for (const [key, child] of Object.entries(node)) {
    answer[key] = isBranch(child) || !leafValues ? true : child;
  }
  return answer;
}

// --- Push ids [push-ids] ---------------------------------------------------------------------------

/** The 64 characters of push ids, in ASCII order so that ids sort as their times do. */
const PUSH_CHARS = '-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz';

/** The 8 characters of time that begin the push ids made at `ms` (tests build keys of "now" with them). */
export function pushIdTime(ms: number): string {
  let time = '';
  for (let rest = ms, count = 0; count < 8; count++, rest = Math.floor(rest / 64)) {
    time = PUSH_CHARS[rest % 64]! + time;
  }
  return time;
}

/**
 * 20 characters: 48 bits of milliseconds in 8 characters, then 72 random bits in 12. Ids made in
 * the same millisecond add one to the previous random part, so they still sort in creation order.
 */
function pushIdGenerator(): () => string {
  let lastTime = -1;
  const random: number[] = Array.from({ length: 12 }, () => 0);
  return () => {
    const now = Math.max(Date.now(), lastTime);
    if (now === lastTime) {
      let index = random.length - 1;
      while (index >= 0 && random[index] === 63) random[index--] = 0;
      if (index >= 0) random[index]! += 1;
    } else {
      for (let index = 0; index < random.length; index++) random[index] = randomInt(64);
    }
    lastTime = now;
    return pushIdTime(now) + random.map((digit) => PUSH_CHARS[digit]!).join('');
  };
}

/**
 * A stream event reduced to the children inside a range of keys: at "/" the data's children (a
 * patch's keys may be paths, "k/status") outside it are left out; deeper, the event is told only
 * when its first key is inside. Null when nothing of it is left to tell.
 */
function inside(
  range: { startAt?: string; endAt?: string },
  event: 'put' | 'patch',
  payload: { path: string; data: FirebaseJson },
): { path: string; data: FirebaseJson } | null {
  const within = (key: string) =>
    (range.startAt === undefined || compareKeys(key, range.startAt) >= 0) &&
    (range.endAt === undefined || compareKeys(key, range.endAt) <= 0);
  const [first] = payload.path.split('/').filter(Boolean);
  if (first !== undefined) return within(first) ? payload : null;
  const data = payload.data;
  if (data === null || typeof data !== 'object') {
    return event === 'put' ? { path: '/', data: null } : null;
  }
  const kept = Object.entries(data).filter(([key]) => within(key.split('/')[0]!));
  if (event === 'patch' && kept.length === 0) return null;
  return { path: '/', data: kept.length > 0 ? Object.fromEntries(kept) : null };
}

// --- The server --------------------------------------------------------------------------------------

/**
 * A Firebase Realtime Database speaking the REST protocol on 127.0.0.1 (a free port), with its
 * data in memory, and hooks for the faults a client of it must survive.
 */
export async function startFirebaseServer(options: FirebaseServerOptions = {}) {
  const namespace = options.namespace ?? 'bmet-test';
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  let root = normalize(options.data ?? null, null, 0);
  const streams = new Set<Stream>();
  const requests: RecordedRequest[] = [];
  const failures: Array<{ status: number; body: unknown }> = [];
  const redirects = { remaining: options.redirectOnce ? 1 : 0, host: 'localhost' };
  const heldRequests: Array<() => void> = [];
  /** Streams ended while paused: their last events (and their end) wait for resume(). */
  const endedWhilePaused: Stream[] = [];
  let paused = false;
  const nextPushId = pushIdGenerator();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://firebase.invalid');
      const query = Object.fromEntries(url.searchParams);
      requests.push({ method: req.method ?? 'GET', path: url.pathname, query, headers: req.headers, body });
      const run = () => {
        try {
          handle(req, res, url, body);
        } catch (error) {
          answerError(res, error);
        }
      };
      if (paused) heldRequests.push(run);
      else run();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  function handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string) {
    const failure = failures.shift();
    if (failure) return send(res, failure.status, failure.body, { raw: true });
    const params = url.searchParams;
    const database = namespaceOf(req, params);
    if (redirects.remaining > 0) {
      redirects.remaining -= 1;
      return redirect(res, url, database);
    }
    if (database !== namespace) {
      // This server's own wording: the reference only says 404 "The specified Realtime Database was not found."
      throw new FirebaseHttpError(404, 'The specified Realtime Database was not found.');
    }
    const method = methodOf(req, params);
    const location = parseLocation(url.pathname);
    const print = params.get('print');
    if (print !== null && print !== 'pretty' && print !== 'silent') {
      throw badRequest('print must be pretty or silent.');
    }
    const credential = authenticate(req, params);
    const wantsEtag = req.headers['x-firebase-etag'] === 'true';
    const ifMatch = headerValue(req.headers['if-match']);
    if (method !== 'GET') refuseReadParameters(params);

    if (method === 'GET' && (req.headers.accept ?? '').includes('text/event-stream')) {
      return openStream(res, location, params, credential);
    }
    if (method === 'GET') return read(res, location, params, { wantsEtag, ifMatch });

    if (method === 'PATCH' && ifMatch !== undefined) {
      throw badRequest('if-match is not supported with PATCH.');
    }
    if (method === 'POST' && ifMatch !== undefined) throw badRequest('if-match is not supported with POST.');
    if (ifMatch !== undefined) checkEtag(location, ifMatch);
    checkWriteSizeLimit(params, method === 'DELETE' ? canonical(getAt(root, location)) : body);

    const headers: Record<string, string> = {};
    if (method === 'PUT' || method === 'DELETE') {
      const value =
        method === 'PUT' ? normalize(parseBody(body), getAt(root, location), location.length) : null;
      write(location, 'put', [[[], value]]);
      if (wantsEtag) headers.ETag = etagOf(value);
      return answer(res, render(value), params, headers);
    }
    if (method === 'POST') {
      const id = nextPushId();
      const value = normalize(parseBody(body), null, location.length + 1);
      write([...location, id], 'put', [[[], value]]);
      if (wantsEtag) headers.ETag = etagOf(value);
      return answer(res, { name: id }, params, headers);
    }
    if (method === 'PATCH') return answer(res, update(location, parseBody(body)), params);
    throw new FirebaseHttpError(405, `Method ${method} is not supported.`);
  }

  /** `?ns=NAME` first (the emulator's way), else the first label of a host name such as NAME.firebaseio.com. */
  function namespaceOf(req: IncomingMessage, params: URLSearchParams): string {
    const fromQuery = params.get('ns');
    if (fromQuery !== null) return fromQuery;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const isAddress = host === 'localhost' || /^[\d.]+$/.test(host) || host.startsWith('[');
    return isAddress || !host.includes('.') ? namespace : host.split('.')[0]!;
  }

  /** A browser without PUT, PATCH or DELETE may POST with X-HTTP-Method-Override [reference]. */
  function methodOf(req: IncomingMessage, params: URLSearchParams): string {
    const method = req.method ?? 'GET';
    const override =
      headerValue(req.headers['x-http-method-override']) ?? params.get('x-http-method-override');
    return method === 'POST' && override ? override.toUpperCase() : method;
  }

  /** The `access_token` or `Authorization: Bearer` token [auth], or the secret as `auth` [retrieve]. */
  function authenticate(req: IncomingMessage, params: URLSearchParams): string | null {
    const auth = options.auth;
    if (!auth) return null;
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ?? params.get('access_token');
    if (token !== null && auth.accessTokens?.has(token)) return token;
    if (token === 'owner' && auth.emulatorOwner) return token;
    if (auth.secret !== undefined && params.get('auth') === auth.secret) return null;
    throw new FirebaseHttpError(401, FIREBASE_ERRORS.unauthorized);
  }

  /** The 307 of a moved database, to this same server under another host name, keeping the namespace. */
  function redirect(res: ServerResponse, url: URL, database: string) {
    const location = new URL(`${url.pathname}${url.search}`, `http://${redirects.host}:${port}`);
    location.searchParams.set('ns', database);
    res.writeHead(307, { Location: location.toString(), 'Content-Length': 0 });
    res.end();
  }

  /** Reading parameters on a write: "The request does not support one of the query parameters" [reference]. */
  function refuseReadParameters(params: URLSearchParams) {
    for (const name of ['shallow', 'orderBy', ...FILTERS, 'callback', 'download', 'format']) {
      if (params.has(name)) throw badRequest(`The request does not support the query parameter ${name}.`);
    }
  }

  function read(
    res: ServerResponse,
    location: Path,
    params: URLSearchParams,
    { wantsEtag, ifMatch }: { wantsEtag: boolean; ifMatch: string | undefined },
  ) {
    if (ifMatch !== undefined) throw badRequest('if-match is not supported with GET.');
    const query = parseQuery(params);
    const shallow = params.get('shallow') === 'true';
    // "shallow cannot be used with any of the filtering data query parameters" [retrieve].
    if (params.has('shallow') && (query || FILTERS.some((name) => params.has(name)))) {
      throw badRequest('Mixing shallow and query parameters is not supported.');
    }
    checkTimeout(params.get('timeout'));
    const format = params.get('format');
    if (format !== null && format !== 'export') throw badRequest('format must be export.');
    const node = getAt(root, location);
    const value = query
      ? render(runQuery(node, query))
      : shallow
        ? shallowOf(node, !!options.shallowLeafValues)
        : render(node);
    if (
      options.maxReadBytes !== undefined &&
      Buffer.byteLength(JSON.stringify(value)) > options.maxReadBytes
    ) {
      throw badRequest(FIREBASE_ERRORS.tooBig);
    }
    const headers: Record<string, string> = wantsEtag ? { ETag: etagOf(node) } : {};
    const download = params.get('download');
    if (download !== null) headers['Content-Disposition'] = `attachment; filename="${download}"`;
    const callback = params.get('callback');
    if (callback !== null) {
      // JSONP: the data wrapped in the named function [reference].
      if (!/^[\w$.]+$/.test(callback)) throw badRequest('callback must be a function name.');
      const text = `${callback}(${JSON.stringify(value)});`;
      res.writeHead(200, { 'Content-Type': 'application/javascript; charset=utf-8', ...headers });
      return res.end(text);
    }
    answer(res, value, params, headers);
  }

  /** `timeout=3ms|3s|3min`, positive and at most 15 minutes, else 400 [reference]. */
  function checkTimeout(text: string | null) {
    if (text === null) return;
    const match = /^(\d+)(ms|s|min)$/.exec(text);
    const ms = match ? Number(match[1]) * { ms: 1, s: 1000, min: 60_000 }[match[2] as 'ms' | 's' | 'min'] : 0;
    if (ms <= 0 || ms > 15 * 60_000) {
      throw badRequest('timeout must be positive and at most 15min, e.g. 3ms, 3s or 3min.');
    }
  }

  /** `writeSizeLimit=tiny|small|medium|large|unlimited`; only `unlimited` lifts the size limit [reference]. */
  function checkWriteSizeLimit(params: URLSearchParams, payload: string) {
    const limit = params.get('writeSizeLimit');
    if (limit !== null && !['tiny', 'small', 'medium', 'large', 'unlimited'].includes(limit)) {
      throw badRequest('writeSizeLimit must be tiny, small, medium, large or unlimited.');
    }
    if (limit !== 'unlimited' && options.maxWriteBytes !== undefined) {
      if (Buffer.byteLength(payload) > options.maxWriteBytes) throw badRequest(FIREBASE_ERRORS.writeTooBig);
    }
  }

  /** A stale if-match answers 412 with the current data and its ETag, and writes nothing [save]. */
  function checkEtag(location: Path, ifMatch: string) {
    const current = getAt(root, location);
    const etag = etagOf(current);
    if (ifMatch.replace(/^"|"$/g, '') !== etag) {
      throw new FirebaseHttpError(412, 'ETag mismatch', render(current), etag);
    }
  }

  /**
   * PATCH: each named child is overwritten and the others kept; a key may be a path
   * ("alanisawesome/nickname") for a multi-path update [save]. Answers the data written.
   */
  function update(location: Path, body: unknown): FirebaseJson {
    if (!isJsonObject(body)) throw badRequest('PATCH data must be a JSON object.');
    const paths = Object.keys(body).map((key) => {
      const keys = keysOf(key);
      if (keys.length === 0) throw badRequest('PATCH keys must name a child.');
      return keys;
    });
    paths.forEach((path, index) => {
      const overlapping = paths.find((other, otherIndex) => otherIndex !== index && isPrefix(path, other));
      if (overlapping) {
        throw badRequest(`Invalid PATCH: ${pathText(path)} is an ancestor of ${pathText(overlapping)}.`);
      }
    });
    const entries = Object.values(body).map((value, index): [Path, TreeNode | null] => {
      const path = [...location, ...paths[index]!];
      return [paths[index]!, normalize(value, getAt(root, path), path.length)];
    });
    write(location, 'patch', entries);
    const answer: { [key: string]: FirebaseJson } = newBranch() as never;
    for (const [path, value] of entries) answer[path.join('/')] = render(value);
    return answer;
  }

  /**
   * Applies a write and tells every stream what changed beneath its location, as the streaming
   * section of [reference] describes: a `put` replaces the data at `path` (relative to the
   * followed location), a `patch` replaces each key of `data` at `path`.
   */
  function write(base: Path, kind: 'put' | 'patch', entries: Array<[Path, TreeNode | null]>) {
    const targets = entries.map(([relative]) => [...base, ...relative]);
    // A write above a followed location may or may not change it: compare before and after.
    const before = new Map<Stream, string>();
    for (const stream of streams) {
      if (!isPrefix(stream.location, base) && targets.some((target) => isPrefix(target, stream.location))) {
        before.set(stream, canonical(getAt(root, stream.location)));
      }
    }
    for (const [relative, value] of entries) root = setAt(root, [...base, ...relative], value);
    for (const stream of streams) announce(stream, base, kind, targets, before.get(stream));
  }

  function announce(stream: Stream, base: Path, kind: 'put' | 'patch', targets: Path[], before?: string) {
    const followed = stream.location;
    const relative = (path: Path) => path.slice(followed.length);
    if (isPrefix(followed, base)) {
      if (kind === 'put') {
        return emit(stream, 'put', { path: pathText(relative(base)), data: render(getAt(root, base)) });
      }
      // The keys of a multi-path update stay paths ("x/status"): the documentation says only "for
      // each key in data"; a client that treats each key as a path copes with either form.
      const data: { [key: string]: FirebaseJson } = newBranch() as never;
      for (const target of targets) data[target.slice(base.length).join('/')] = render(getAt(root, target));
      return emit(stream, 'patch', { path: pathText(relative(base)), data });
    }
    if (before !== undefined) {
      const now = getAt(root, followed);
      if (canonical(now) !== before) emit(stream, 'put', { path: '/', data: render(now) });
      return;
    }
    const inside = targets.filter((target) => isPrefix(followed, target));
    if (inside.length === 1) {
      emit(stream, 'put', { path: pathText(relative(inside[0]!)), data: render(getAt(root, inside[0]!)) });
    } else if (inside.length > 1) {
      const data: { [key: string]: FirebaseJson } = newBranch() as never;
      for (const target of inside) data[relative(target).join('/')] = render(getAt(root, target));
      emit(stream, 'patch', { path: '/', data });
    }
  }

  /**
   * `Accept: text/event-stream`: the data at the location as a first `put` at "/", then an event
   * per change, `keep-alive` at intervals [reference]. A range of keys is streamed as `inside` says.
   */
  function openStream(
    res: ServerResponse,
    location: Path,
    params: URLSearchParams,
    credential: string | null,
  ) {
    const query = params.has('shallow') ? null : parseQuery(params);
    const isKeyRange =
      query?.orderBy === '$key' &&
      query.equalTo === undefined &&
      query.limitToFirst === undefined &&
      query.limitToLast === undefined;
    if (params.has('shallow') || (query && (!isKeyRange || options.noRangeStreams))) {
      throw badRequest('This test server streams no shallow read, and no filter but a range of keys.');
    }
    const range = query
      ? { startAt: query.startAt as string | undefined, endAt: query.endAt as string | undefined }
      : undefined;
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'Access-Control-Allow-Origin': '*',
    });
    const stream: Stream = {
      location,
      res,
      credential,
      held: [],
      keepAlive: setInterval(() => emit(stream, 'keep-alive', null), keepAliveMs),
      range,
    };
    stream.keepAlive.unref();
    streams.add(stream);
    res.on('close', () => {
      clearInterval(stream.keepAlive);
      streams.delete(stream);
    });
    const whole = { path: '/', data: render(getAt(root, location)) };
    const first = range ? inside(range, 'put', whole)! : whole;
    if (
      options.maxStreamBytes !== undefined &&
      Buffer.byteLength(JSON.stringify(first)) > options.maxStreamBytes
    ) {
      return endStream(stream, 'cancel', FIREBASE_ERRORS.streamTooBig);
    }
    emit(stream, 'put', first);
  }

  /** One event in the EventSource format: `event: NAME`, `data: JSON`, a blank line. */
  function emit(stream: Stream, event: string, data: unknown) {
    if (stream.range && (event === 'put' || event === 'patch')) {
      const inRange = inside(stream.range, event, data as { path: string; data: FirebaseJson });
      if (!inRange) return;
      data = inRange;
    }
    const text = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    if (paused) stream.held.push(text);
    else stream.res.write(text);
  }

  function endStream(stream: Stream, event: 'cancel' | 'auth_revoked', data: unknown) {
    emit(stream, event, data);
    clearInterval(stream.keepAlive);
    streams.delete(stream);
    if (paused) {
      stream.held.push('');
      endedWhilePaused.push(stream);
    } else {
      stream.res.end();
    }
  }

  const onStreamsAt = (path: string | undefined, action: (stream: Stream) => void) => {
    const location = path === undefined ? undefined : keysOf(path);
    const chosen = [...streams].filter(
      (stream) => !location || pathText(stream.location) === pathText(location),
    );
    chosen.forEach(action);
    return chosen.length;
  };

  function answer(
    res: ServerResponse,
    value: FirebaseJson,
    params: URLSearchParams,
    headers: Record<string, string> = {},
  ) {
    if (params.get('print') === 'silent') {
      res.writeHead(204, { 'Cache-Control': 'no-cache', ...headers });
      return res.end();
    }
    send(res, 200, value, { pretty: params.get('print') === 'pretty', headers });
  }

  function answerError(res: ServerResponse, error: unknown) {
    if (!(error instanceof FirebaseHttpError)) throw error;
    const headers: Record<string, string> = error.etag ? { ETag: error.etag } : {};
    send(res, error.status, error.body !== undefined ? error.body : { error: error.message }, { headers });
  }

  return {
    /** The database URL in the emulator's form: `http://127.0.0.1:PORT/?ns=NAME`. */
    url: `http://127.0.0.1:${port}/?ns=${namespace}`,
    /** `127.0.0.1:PORT`, as FIREBASE_DATABASE_EMULATOR_HOST takes it. */
    host: `127.0.0.1:${port}`,
    origin: `http://127.0.0.1:${port}`,
    port,
    namespace,
    /** Every request received, in order (failed, redirected and held ones too). */
    requests,
    /** The data, read and written directly; writes reach open streams like any other writer's. */
    tree: {
      get: (path = '/'): FirebaseJson => render(getAt(root, keysOf(path))),
      set(path: string, value: FirebaseJson) {
        const location = keysOf(path);
        write(location, 'put', [[[], normalize(value, getAt(root, location), location.length)]]);
      },
      update(path: string, values: Record<string, FirebaseJson>) {
        update(keysOf(path), values);
      },
    },
    /** A push id as POST makes them. */
    pushId: nextPushId,
    get openStreams() {
      return streams.size;
    },
    /** The locations open streams follow. */
    streamPaths: () => [...streams].map((stream) => pathText(stream.location)),
    /** Grants an access token (a token refreshed by the client, say); turns auth on if it was off. */
    grantAccessToken(token: string) {
      if (!options.auth) options.auth = {};
      (options.auth.accessTokens ??= new Set()).add(token);
    },
    /** Revokes an access token: its streams get `auth_revoked` and close, its requests 401. */
    revokeAccessToken(token: string) {
      options.auth?.accessTokens?.delete(token);
      for (const stream of [...streams]) {
        if (stream.credential === token) {
          endStream(stream, 'auth_revoked', 'The credential is no longer valid.');
        }
      }
    },
    /** Sends `cancel` (data: its cause, "Permission denied." unless given) to the streams at a path, or all, and closes them. */
    cancelStreams(path?: string, cause: string | null = FIREBASE_ERRORS.permissionDenied) {
      return onStreamsAt(path, (stream) => endStream(stream, 'cancel', cause));
    },
    /** Cuts every stream mid-event: half an event written, then the socket destroyed. */
    dropStreams() {
      return onStreamsAt(undefined, (stream) => {
        clearInterval(stream.keepAlive);
        streams.delete(stream);
        stream.res.write('event: put\ndata: {"path":"/","da', () => stream.res.socket?.destroy());
      });
    },
    /** The next `times` requests answer this status and body (JSON unless a string). */
    failNext(status: number, body: unknown = { error: 'Injected failure.' }, times = 1) {
      for (let count = 0; count < times; count++) failures.push({ status, body });
    },
    /** The next `times` requests answer 307 to the same path on another host name of this server. */
    redirectNext(times = 1, host = 'localhost') {
      redirects.remaining = times;
      redirects.host = host;
    },
    /** Holds requests and stream events (a slow or unreachable server) until resume(). */
    pause() {
      paused = true;
    },
    resume() {
      paused = false;
      for (const stream of [...streams, ...endedWhilePaused.splice(0)]) flushHeld(stream);
      heldRequests.splice(0).forEach((run) => run());
    },
    async close() {
      for (const stream of streams) clearInterval(stream.keepAlive);
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Writes the events held while paused; an empty entry stands for the end of the stream. */
function flushHeld(stream: Stream) {
  for (const text of stream.held.splice(0)) {
    if (text === '') stream.res.end();
    else stream.res.write(text);
  }
}

function parseBody(body: string): unknown {
  if (body.trim() === '') throw badRequest('No data supplied.');
  try {
    return JSON.parse(body);
  } catch {
    throw badRequest("Invalid data; couldn't parse JSON object, array, or value.");
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON answer; `raw` sends a string as it is (an injected failure's body, say). */
function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  {
    pretty = false,
    raw = false,
    headers = {},
  }: { pretty?: boolean; raw?: boolean; headers?: Record<string, string> } = {},
) {
  const text =
    raw && typeof body === 'string' ? body : JSON.stringify(body ?? null, null, pretty ? 2 : undefined);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-cache',
    'Access-Control-Allow-Origin': '*',
    ...headers,
  });
  res.end(text);
}

export type FirebaseServer = Awaited<ReturnType<typeof startFirebaseServer>>;
