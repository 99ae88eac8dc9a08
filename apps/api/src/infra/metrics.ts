import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import type { FirebaseLinkStatus } from '@bmet/shared/schemas/firebase-link';
import type { Db } from '../db/client';
import { rowsOf } from '../db/rows';
import { readLinkStatus } from './firebase-link-state';

/** What the server counts for its operators, in Prometheus' terms. One registry per app. */
export type Metrics = {
  registry: Registry;
  positionsAccepted: Counter;
  signInFailures: Counter<'reason'>;
  signInRefusals: Counter<'reason'>;
  /** Tells the metrics how to read the number of open live streams, which the streams keep. */
  watchOpenStreams(read: () => number): void;
};

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** Where the metrics read the database's connections: the database and the most it may open. */
export type PoolSource = { db: Db; size: number };

/**
 * This instance's database connections by state, as the database itself sees them: the pool has
 * no figures of its own, and its connections share one application name per instance. The
 * reading's own query is taken off the active ones.
 */
async function readConnections(db: Db): Promise<Map<string, number>> {
  const rows = rowsOf(
    await db.execute(sql`
      select coalesce(state, 'unknown') as state, count(*)::int as connections
      from pg_stat_activity
      where application_name = current_setting('application_name')
      group by 1`),
  );
  const byState = new Map(rows.map((row) => [String(row.state), Number(row.connections)]));
  byState.set('active', Math.max(0, (byState.get('active') ?? 1) - 1));
  return byState;
}

const CONNECTION_STATES = ['active', 'idle', 'idle in transaction'];

/** Where the metrics read the Firebase link, when it is configured. */
export type LinkSource = { db: Db; writeBack: boolean };

/**
 * The Firebase link's figures, as the instance that follows writes them for every instance (so
 * whichever instance is scraped answers the same). One reading serves a whole scrape.
 */
function linkGauges(registry: Registry, link: LinkSource): void {
  let reading: { at: number; status: Promise<FirebaseLinkStatus | undefined> } | null = null;
  const read = () => {
    if (!reading || Date.now() - reading.at > 1000) {
      reading = { at: Date.now(), status: readLinkStatus(link.db, link.writeBack).catch(() => undefined) };
    }
    return reading.status;
  };
  const gauge = (name: string, help: string, value: (status: FirebaseLinkStatus) => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const status = await read();
        const figure = status ? value(status) : null;
        if (figure !== null) this.set(figure);
      },
    });
  gauge(
    'bmet_firebase_link_following',
    'An instance follows the Firebase database (1) or none does (0)',
    (s) => (s.following ? 1 : 0),
  );
  new Gauge({
    name: 'bmet_firebase_link_applied',
    help: 'Records applied from Firebase per kind, since the following instance began',
    labelNames: ['kind'],
    registers: [registry],
    async collect() {
      const status = await read();
      if (!status) return;
      this.reset();
      for (const [kind, count] of Object.entries(status.applied)) this.set({ kind }, count);
      this.set({ kind: 'positions' }, status.positions);
    },
  });
  gauge(
    'bmet_firebase_link_events_per_minute',
    'Changes from Firebase applied in the last minute',
    (s) => s.eventsPerMinute,
  );
  gauge(
    'bmet_firebase_link_lag_seconds',
    'The longest a change from Firebase waited to be applied, in the last minute',
    (s) => s.lagSeconds ?? 0,
  );
  gauge(
    'bmet_firebase_link_reconnects',
    'Times the following instance reconnected to Firebase',
    (s) => s.reconnects,
  );
  gauge(
    'bmet_firebase_link_skipped',
    'Events and records from Firebase skipped as unreadable',
    (s) => s.skipped,
  );
  gauge(
    'bmet_firebase_link_outbox_waiting',
    'Writes waiting to be sent to Firebase',
    (s) => s.outbox.waiting,
  );
  gauge(
    'bmet_firebase_link_outbox_failing',
    'Waiting writes to Firebase that failed at least once',
    (s) => s.outbox.failing,
  );
  gauge('bmet_firebase_link_outbox_oldest_seconds', 'Age of the oldest write waiting for Firebase', (s) =>
    s.outbox.oldestWaitingAt ? (Date.now() - Date.parse(s.outbox.oldestWaitingAt)) / 1000 : 0,
  );
}

export function createMetrics(pool?: PoolSource, link?: LinkSource): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bmet_' });
  if (pool) {
    new Gauge({
      name: 'bmet_db_pool_size',
      help: 'Database connections this instance may open at most',
      registers: [registry],
    }).set(pool.size);
    new Gauge({
      name: 'bmet_db_connections',
      help: "This instance's database connections by state (active: running a query)",
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        // A database that does not answer leaves the last reading; /api/ready reports it.
        const byState = await readConnections(pool.db).catch(() => undefined);
        if (!byState) return;
        for (const state of new Set([...CONNECTION_STATES, ...byState.keys()])) {
          this.set({ state }, byState.get(state) ?? 0);
        }
      },
    });
  }
  if (link) linkGauges(registry, link);
  let openStreams = () => 0;
  new Gauge({
    name: 'bmet_live_streams_open',
    help: 'Live position streams open on this instance (dashboards watching a driver)',
    registers: [registry],
    collect() {
      this.set(openStreams());
    },
  });
  return {
    registry,
    positionsAccepted: new Counter({
      name: 'bmet_positions_accepted_total',
      help: 'Driver positions reported by the driver app and stored',
      registers: [registry],
    }),
    signInFailures: new Counter({
      name: 'bmet_sign_in_failures_total',
      help: 'Sign-ins refused for a wrong email or password',
      labelNames: ['reason'],
      registers: [registry],
    }),
    signInRefusals: new Counter({
      name: 'bmet_sign_in_refusals_total',
      help: 'Sign-ins refused before or after the password: throttled, disabled account, wrong tab',
      labelNames: ['reason'],
      registers: [registry],
    }),
    watchOpenStreams(read) {
      openStreams = read;
    },
  };
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function mayRead(request: FastifyRequest, token: string | undefined): boolean | 'hidden' {
  const header = request.headers.authorization;
  if (token && header?.startsWith('Bearer ')) {
    const given = Buffer.from(header.slice(7));
    const expected = Buffer.from(token);
    if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  }
  if (LOOPBACK.test(request.ip)) return true;
  // Without a token, /metrics does not exist for anyone but this host.
  return token ? false : 'hidden';
}

/**
 * Request durations per route and status, and `GET /metrics` in Prometheus' text format: open to
 * loopback (a scraper beside the server), elsewhere only with `Authorization: Bearer METRICS_TOKEN`,
 * and answered 404 from elsewhere when no token is configured.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance, options: { token?: string; pool?: PoolSource; link?: LinkSource }) => {
    const metrics = createMetrics(options.pool, options.link);
    app.decorate('metrics', metrics);
    const durations = new Histogram({
      name: 'bmet_http_request_duration_seconds',
      help: 'Time to answer a request, per route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [metrics.registry],
    });
    // A callback hook, not an async one: every answer passes here, and a promise each is waste.
    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern, not the path: one series per route, whatever the ids in the address.
      const route = request.routeOptions.url ?? 'unmatched';
      durations.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      // The router decodes the path (to it `/%6detrics` is `/metrics`), while a proxy's rule that
      // keeps /metrics inside may see only the form written: metrics answer that form alone.
      if (request.raw.url?.split('?', 1)[0] !== '/metrics') throw new AppError('NOT_FOUND', m.notFound());
      const allowed = mayRead(request, options.token);
      if (allowed === 'hidden') throw new AppError('NOT_FOUND', m.notFound());
      if (!allowed) {
        throw new AppError('UNAUTHORIZED', m.unauthorized(), { headers: { 'www-authenticate': 'Bearer' } });
      }
      return reply
        .header('content-type', metrics.registry.contentType)
        .header('cache-control', 'no-store')
        .send(await metrics.registry.metrics());
    });
  },
);
