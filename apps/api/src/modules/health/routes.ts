import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';
import type { LocationBus } from '../../infra/location-bus';
import { MIGRATIONS } from '../../paths';
import { firebaseLinkStatusSchema } from '@bmet/shared/schemas/firebase-link';
import { readLinkStatus } from '../../infra/firebase-link-state';

export type HealthRoutesOptions = {
  db: Db;
  locationBus: LocationBus;
  /** The Firebase link, when configured: reported, never a reason to refuse traffic. */
  firebaseLink?: { writeBack: boolean };
};

const MIGRATION_COUNT = (
  JSON.parse(readFileSync(join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  }
).entries.length;

const CHECK_TIMEOUT_MS = 2000;

const checkSchema = z.object({ name: z.string(), ok: z.boolean(), error: z.string().optional() });
const readySchema = z.object({
  status: z.enum(['ready', 'not ready']),
  checks: z.array(checkSchema),
  firebaseLink: firebaseLinkStatusSchema
    .pick({ following: true, connectedSince: true, lastEventAt: true })
    .optional(),
});

/** Runs a check with a time limit: a probe must get its answer even from a hung database. */
async function check(name: string, work: () => Promise<void>): Promise<z.infer<typeof checkSchema>> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { name, ok: true };
  } catch (error) {
    return { name, ok: false, error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Probes for operators and orchestrators: `/api/health` answers while the process runs (liveness),
 * `/api/ready` only when the database answers with every migration applied and Redis answers when
 * it is configured (readiness: a load balancer sends no traffic before).
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { db, locationBus, firebaseLink },
) => {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary: 'Liveness: 200 while the process runs',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['operations'],
        summary:
          'Readiness: 200 when the database (and Redis, when configured) answer; else 503 with the failed check',
        response: { 200: readySchema, 503: readySchema },
      },
    },
    async (_request, reply) => {
      const checks = await Promise.all([
        check('database', async () => {
          const result = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
          const applied = Number(rowsOf(result)[0]?.n ?? 0);
          if (applied < MIGRATION_COUNT)
            throw new Error(`${applied} of ${MIGRATION_COUNT} migrations applied`);
        }),
        ...(locationBus.ping ? [check('redis', () => locationBus.ping!())] : []),
      ]);
      const ready = checks.every((c) => c.ok);
      const link = firebaseLink ? await readLinkStatus(db, firebaseLink.writeBack).catch(() => null) : null;
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not ready',
        checks,
        ...(link
          ? {
              firebaseLink: {
                following: link.following,
                connectedSince: link.connectedSince,
                lastEventAt: link.lastEventAt,
              },
            }
          : {}),
      });
    },
  );
};
