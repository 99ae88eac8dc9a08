import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@bmet/shared/schemas/common';
import { walletQuerySchema, walletResponseSchema, type WalletResponse } from '@bmet/shared/schemas/wallet';
import type { Db, DbExecutor } from '../../db/client';
import { driverWalletEntries, drivers } from '../../db/schema';
import { errorResponses } from '../../lib/error-responses';
import { cursorTimestampSchema, decodeCursor, keysetPage, newestFirst } from '../../lib/paging';
import { currentUser } from '../../plugins/authentication';
import { getDriver } from './repository';

const walletCursorSchema = z.object({ at: cursorTimestampSchema, id: z.uuid() }).strict();

/** A driver's wallet balance and a page of its entries, newest first (driver, created_at desc, id desc). */
export async function findDriverWallet(
  db: DbExecutor,
  driverId: string,
  options: { limit: number; cursor?: string },
): Promise<WalletResponse> {
  const before = options.cursor ? decodeCursor(options.cursor, walletCursorSchema) : null;
  const [driver] = await db
    .select({ balance: drivers.walletBalance })
    .from(drivers)
    .where(eq(drivers.id, driverId));
  const t = driverWalletEntries;
  const rows = await db
    .select({
      id: t.id,
      kind: t.kind,
      amount: t.amount,
      credit: t.credit,
      balanceAfter: t.balanceAfter,
      orderId: t.orderId,
      createdAt: t.createdAt,
      cursorAt: sql<string>`to_char(${t.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    })
    .from(t)
    .where(
      and(
        eq(t.driverId, driverId),
        before ? sql`(${t.createdAt}, ${t.id}) < (${before.at}::timestamptz, ${before.id}::uuid)` : undefined,
      ),
    )
    .orderBy(...newestFirst(t.createdAt, t.id))
    .limit(options.limit + 1);
  const { shown, nextCursor } = keysetPage(rows, options.limit, (row) => ({ at: row.cursorAt, id: row.id }));
  return {
    data: {
      balance: driver?.balance ?? null,
      entries: shown.map(({ cursorAt: _cursorAt, createdAt, ...entry }) => ({
        ...entry,
        createdAt: createdAt.toISOString(),
      })),
    },
    nextCursor,
  };
}

/** GET /api/drivers/driver/{id}/wallet: read-only, to whoever may see the driver. */
export function registerDriverWalletRoutes(parent: FastifyInstance, db: Db) {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/drivers/driver/:id/wallet',
    {
      config: { access: ['drivers', 'view'] },
      schema: {
        tags: ['drivers'],
        summary: "The driver's wallet: its balance and its entries, newest first",
        description: 'Pass `nextCursor` back as `cursor` for the next page of entries.',
        params: idParamSchema,
        querystring: walletQuerySchema,
        response: {
          200: walletResponseSchema,
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request) => {
      const driver = await getDriver(db, currentUser(request), request.params.id);
      return findDriverWallet(db, driver.id, request.query);
    },
  );
}
