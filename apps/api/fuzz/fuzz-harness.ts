import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import type { Role } from '@bmet/shared/constants';
import { buildApp, type App } from '../src/app';
import { openDatabase, type Database, type Db } from '../src/db/client';
import { accounts, customers, drivers, trips } from '../src/db/schema';
import { seedDemo } from '../src/seed/demo';
import { recordAudit } from '../src/infra/audit';
import { createInProcessLocationBus } from '../src/infra/location-bus';
import { createLocalObjectStore } from '../src/infra/object-store';
import { openSession } from '../src/modules/auth/start-session';
import {
  forgedCursor,
  hostileStrings,
  hostileValue,
  mutatedValueFor,
  pathSegment,
  sortOfCursor,
  valueFor,
  type FuzzContext,
  type JsonSchema,
} from './arbitraries';

/**
 * The fuzz suite's world and judge: a server on its own database with a small demo world, a
 * generator of requests built from every /api route's own schemas (its OpenAPI document) and
 * beyond them, and a check of each answer: never a 5xx, and a refused request changes no table.
 */

const JWT_SECRET = 'fuzz-only-jwt-secret-0123456789abcdefghijkl';
// Tables a refused request may change by design: failed sign-ins and reset requests are counted.
const COUNTED_ON_REFUSAL = new Set(['sign_in_attempts']);
// A stream never ends by itself: they are tested on their own (location-stream, fleet and SOS tests).
const SKIPPED_ROUTES = new Set([
  'GET /api/drivers/location/:driverKey/stream',
  'GET /api/fleet/stream',
  'GET /api/sos/stream',
]);

type Caller = Role | 'other_dealer' | 'anonymous' | 'forged';
const CALLERS: Caller[] = ['admin', 'city_dealer', 'franchise', 'other_dealer', 'anonymous', 'forged'];
const STAFF: Caller[] = ['admin', 'admin', 'city_dealer', 'franchise'];

type Parameter = { in: 'path' | 'query'; name: string; required?: boolean; schema: JsonSchema };
type Target = { method: string; url: string; parameters: Parameter[]; body: JsonSchema | null };

export type FuzzRequest = {
  method: string;
  url: string;
  caller: Caller;
  contentType: string | null;
  payload: string | Buffer | null;
};

export type Verdict = { request: FuzzRequest; status: number; serverError: boolean; stateChanged: string[] };

export type FuzzWorld = {
  app: App;
  requests: fc.Arbitrary<FuzzRequest>;
  run(request: FuzzRequest): Promise<Verdict>;
  close(): Promise<void>;
};

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Parameter[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      }
    >
  >;
};

function targetsOf(app: App): Target[] {
  const spec = app.swagger() as unknown as OpenApi;
  return app.routeCatalog
    .filter(
      (route) => !SKIPPED_ROUTES.has(`${route.method} ${route.url}`) && !route.url.startsWith('/api/docs'),
    )
    .map((route) => {
      const openApiPath = route.url.replace(/:(\w+)/g, '{$1}');
      const operation = spec.paths[openApiPath]?.[route.method.toLowerCase()] ?? {};
      return {
        method: route.method,
        url: route.url,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content?.['application/json']?.schema ?? null,
      };
    });
}

function textOf(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** The body: valid, broken in one place, hostile, cut short, of another type, or absent. */
function bodyFor(
  target: Target,
  context: FuzzContext,
): fc.Arbitrary<Pick<FuzzRequest, 'contentType' | 'payload'>> {
  const json = (arbitrary: fc.Arbitrary<unknown>) =>
    arbitrary.map((value) => ({ contentType: 'application/json', payload: textOf(value) }));
  const raw = (contentType: string, payload: string | Buffer) => fc.constant({ contentType, payload });
  const schema = target.body ?? { type: 'object' };
  return fc.oneof(
    { weight: target.body ? 5 : 1, arbitrary: json(valueFor(schema, context)) },
    { weight: target.body ? 5 : 1, arbitrary: json(mutatedValueFor(schema, context)) },
    { weight: 2, arbitrary: json(hostileValue) },
    {
      weight: 1,
      arbitrary: fc.tuple(valueFor(schema, context), fc.nat()).map(([value, cut]) => {
        const text = textOf(value);
        return { contentType: 'application/json', payload: text.slice(0, cut % Math.max(1, text.length)) };
      }),
    },
    {
      weight: 1,
      arbitrary: fc.oneof(
        raw('application/json', '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}}}'),
        raw('application/json', `${'['.repeat(20_000)}${']'.repeat(20_000)}`),
        raw('application/json', `[${'"x",'.repeat(200_000)}"x"]`),
        raw('application/json', 'x'.repeat(1_100_000)),
        raw('application/json', '{"a":"\\ud800"}'),
        raw('application/json', '\u0000'),
        raw('text/plain', 'hello'),
        raw('application/x-www-form-urlencoded', 'a=1&b=%zz'),
        raw(
          'multipart/form-data; boundary=x',
          '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
        ),
        raw('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46])),
        raw('image/png', Buffer.from('not a png at all')),
        raw('application/json; charset=utf-16', '{}'),
      ),
    },
    { weight: 1, arbitrary: fc.constant({ contentType: null, payload: null }) },
  );
}

function queryFor(target: Target, context: FuzzContext): fc.Arbitrary<string> {
  const queryParameters = target.parameters.filter((parameter) => parameter.in === 'query');
  const sorts = (queryParameters.find((parameter) => parameter.name === 'sort')?.schema.enum ??
    []) as string[];
  const entries = queryParameters.map((parameter) =>
    fc.option(
      fc
        .oneof(
          { weight: 5, arbitrary: valueFor(parameter.schema, context, parameter.name) },
          { weight: 1, arbitrary: fc.constantFrom(...hostileStrings) },
          {
            weight: parameter.name === 'cursor' ? 4 : 0,
            arbitrary: forgedCursor(context, target.url, sorts),
          },
        )
        .map((value) => [parameter.name, value] as const),
      { nil: null },
    ),
  );
  const extraParameters = fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, fc.constant(true));
  return fc.tuple(fc.tuple(...entries), extraParameters).map(([picked, extra]) => {
    let chosen = picked;
    // A cursor names the sort it was handed out for: asked for under that sort, it reaches the
    // checks of its key (and the query) instead of stopping at "another sort's cursor".
    const cursor = chosen.find((entry) => entry?.[0] === 'cursor')?.[1];
    const named = sorts.length && typeof cursor === 'string' ? sortOfCursor(cursor) : null;
    if (named) {
      chosen = [
        ...chosen.filter((entry) => entry?.[0] !== 'sort' && entry?.[0] !== 'order'),
        ['sort', named.sort] as const,
        ['order', named.order] as const,
      ];
    }
    const parts: string[] = [];
    for (const entry of chosen) {
      if (!entry) continue;
      const [name, value] = entry;
      for (const item of Array.isArray(value) ? value : [value]) {
        parts.push(`${name}=${encodeQueryValue(item)}`);
      }
    }
    if (extra) parts.push('__proto__[admin]=true&limit=-1&limit=2');
    return parts.length ? `?${parts.join('&')}` : '';
  });
}

function encodeQueryValue(value: unknown): string {
  const text = typeof value === 'string' ? value : textOf(value);
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

function requestsFor(targets: Target[], context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...targets).chain((target) => {
    const pathParameters = target.url.match(/:(\w+)/g)?.map((name) => name.slice(1)) ?? [];
    const segments = pathParameters.map((name) => {
      const schema = target.parameters.find(
        (parameter) => parameter.in === 'path' && parameter.name === name,
      )?.schema;
      return pathSegment(schema ?? { type: 'string' }, context);
    });
    return fc
      .record({
        // Mostly callers who may use the route, so that requests reach the routes' own checks.
        caller: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...STAFF) }, fc.constantFrom(...CALLERS)),
        segments: fc.tuple(...segments),
        query: queryFor(target, context),
        body: bodyFor(target, context),
      })
      .map(({ caller, segments: values, query, body }) => {
        let index = 0;
        const path = target.url.replace(/:(\w+)/g, () => values[index++] ?? '');
        return { method: target.method, url: `${path}${query}`, caller, ...body };
      });
  });
}

/**
 * Real cursors of the world's lists by route, a page of one row under each sort and order: the
 * fuzz breaks one value of such a cursor at a time, so its forgeries pass the shape checks and reach
 * the checks of each value (and the query).
 */
async function collectCursors(
  app: App,
  targets: Target[],
  headers: Record<string, string>,
): Promise<Record<string, string[]>> {
  const cursors: Record<string, string[]> = {};
  for (const target of targets) {
    const query = target.parameters.filter((parameter) => parameter.in === 'query');
    if (target.method !== 'GET' || target.url.includes(':') || !query.some((p) => p.name === 'cursor'))
      continue;
    const sorts = (query.find((parameter) => parameter.name === 'sort')?.schema.enum ?? []) as string[];
    const asked = [
      '',
      ...sorts.flatMap((sort) => ['asc', 'desc'].map((order) => `&sort=${sort}&order=${order}`)),
    ];
    for (const sort of asked) {
      const response = await app.inject({ method: 'GET', url: `${target.url}?limit=1${sort}`, headers });
      const next =
        response.statusCode === 200 ? (response.json() as { nextCursor?: unknown }).nextCursor : null;
      if (typeof next === 'string') (cursors[target.url] ??= []).push(next);
    }
  }
  return cursors;
}

/** A digest of every table's rows (but the counters a refusal may move), to see any change. */
async function fingerprint(db: Db, tables: string[]): Promise<Map<string, string>> {
  const parts = tables.map(
    (table) =>
      sql`select ${table} as t, md5(coalesce(string_agg(h, ',' order by h), '')) as d from (select md5(x::text) as h from ${sql.identifier(table)} x) s`,
  );
  const query = sql.join(parts, sql` union all `);
  const rows = (await db.execute(query)) as unknown as
    { rows?: { t: string; d: string }[] } | { t: string; d: string }[];
  const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
  return new Map(list.map((row) => [row.t, row.d]));
}

/** Builds the world: its own database (in memory unless a URL is given) and the demo data at a small scale. */
export async function createFuzzWorld(options: { databaseUrl?: string } = {}): Promise<FuzzWorld> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bmet-fuzz-'));
  const database: Database = await openDatabase({ databaseUrl: options.databaseUrl, dataDir: 'memory://' });
  const db = database.db;
  const objectStore = createLocalObjectStore(join(dataDir, 'objects'));
  await seedDemo(db, {
    password: 'fuzz-demo-password',
    objectStore,
    progress: false,
    scale: { drivers: 30, trips: 60, customers: 20, dealers: 2, franchisesPerDealer: 2 },
  });

  const app = await buildApp({
    config: {
      jwtSecret: JWT_SECRET,
      tokenTtlHours: 3,
      webDist: join(dataDir, 'no-web'),
      trustProxy: false,
      mapTileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      mapAttribution: 'fuzz',
      rateLimitPerMinute: 1_000_000,
    },
    db,
    objectStore,
    locationBus: createInProcessLocationBus(),
  });
  await app.ready();

  const staffRows = await db.select().from(accounts);
  const pick = (role: Role, index = 0) => staffRows.filter((row) => row.role === role)[index]!;
  const staff: Record<Exclude<Caller, 'anonymous' | 'forged'>, (typeof staffRows)[number]> = {
    admin: pick('admin'),
    city_dealer: pick('city_dealer'),
    franchise: staffRows.find((row) => row.role === 'franchise' && row.dealerId === pick('city_dealer').id)!,
    other_dealer: pick('city_dealer', 1),
  };
  const ids = [
    ...staffRows.map((row) => row.id),
    ...(await db.select({ id: drivers.id }).from(drivers).limit(10)).map((row) => row.id),
    ...(await db.select({ id: trips.id }).from(trips).limit(10)).map((row) => row.id),
    ...(await db.select({ id: customers.id }).from(customers).limit(5)).map((row) => row.id),
  ];
  const context: FuzzContext = { ids, emails: staffRows.map((row) => row.email), cursors: {} };

  const tableRows = (await db.execute(
    sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows?: { name: string }[] } | { name: string }[];
  const tables = (Array.isArray(tableRows) ? tableRows : (tableRows.rows ?? []))
    .map((row) => row.name)
    .filter((name) => !COUNTED_ON_REFUSAL.has(name));

  /** A fresh token for the caller, its account put back as it was (earlier requests may change it). */
  async function headersFor(caller: Caller): Promise<Record<string, string>> {
    if (caller === 'anonymous') return {};
    if (caller === 'forged') return { authorization: `Bearer ${randomUUID()}.${randomUUID()}.x` };
    const account = staff[caller];
    await db
      .update(accounts)
      .set({
        disabled: false,
        deletedAt: null,
        role: account.role,
        state: account.state,
        dealerId: account.dealerId,
        email: account.email,
      })
      .where(eq(accounts.id, account.id));
    const expiresAt = new Date(Date.now() + 3_600_000);
    const { idToken } = await openSession(
      db,
      { id: account.id, role: account.role, email: account.email, displayName: null },
      { jwtSecret: JWT_SECRET, expiresAt },
    );
    return { authorization: `Bearer ${idToken}` };
  }

  // A short audit trail, so that its list hands out a cursor too.
  for (const [index, row] of staffRows.slice(0, 3).entries()) {
    await recordAudit(
      db,
      { id: row.id, requestId: `fuzz-${index}` },
      { action: 'update', resource: 'profile', resourceId: row.id, before: null, after: { language: 'en' } },
    );
  }
  const targets = targetsOf(app);
  context.cursors = await collectCursors(app, targets, await headersFor('admin'));

  return {
    app,
    requests: requestsFor(targets, context),
    async run(request) {
      const headers = await headersFor(request.caller);
      if (request.contentType) headers['content-type'] = request.contentType;
      const before = await fingerprint(db, tables);
      const response = await app.inject({
        method: request.method as 'GET',
        url: request.url,
        headers,
        ...(request.payload !== null ? { payload: request.payload } : {}),
      });
      const refused = response.statusCode >= 400;
      let stateChanged: string[] = [];
      if (refused) {
        const after = await fingerprint(db, tables);
        stateChanged = tables.filter((table) => before.get(table) !== after.get(table));
      }
      return { request, status: response.statusCode, serverError: response.statusCode >= 500, stateChanged };
    },
    async close() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One line per failing request, short enough to read. */
export function describeVerdict(verdict: Verdict): string {
  const { request } = verdict;
  const payload =
    request.payload === null
      ? ''
      : ` ${request.contentType} ${String(typeof request.payload === 'string' ? request.payload : '<bytes>').slice(0, 200)}`;
  const what = verdict.serverError ? 'server error' : `changed ${verdict.stateChanged.join(', ')}`;
  return `${verdict.status} (${what}) as ${request.caller}: ${request.method} ${request.url.slice(0, 200)}${payload}`;
}
