/**
 * The floor of bench:http: the least a server can do to answer a list. A minimal Fastify process
 * that, for each list, sends PostgreSQL exactly the statements the console sent for one such
 * request (read from PostgreSQL's statement log by floor.ts, the session lookup left out), named
 * and prepared with the same parameters, and answers their rows as JSON, uncompressed. It
 * authenticates nobody, validates nothing and parses no dates: whatever the console does beyond
 * it is the console's cost.
 *
 * Started by bench:http as a process of its own:
 *   FLOOR_DATABASE_URL=... FLOOR_STATEMENTS=file.json PORT=... node --import tsx bench/floor-server.ts
 * `GET /lists/<n>` answers the n-th list of the file.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import postgres from 'postgres';
import type { LoggedStatement } from './floor';

const lists = JSON.parse(readFileSync(process.env.FLOOR_STATEMENTS!, 'utf8')) as LoggedStatement[][];

// Timestamps and dates stay the text PostgreSQL sends: turning them into Date objects is work the
// floor leaves to whoever wants it.
const asText = {
  to: 25,
  from: [1082, 1114, 1184],
  serialize: (value: unknown) => String(value),
  parse: (value: string) => value,
};

const sql = postgres(process.env.FLOOR_DATABASE_URL!, {
  // As many connections as one console instance keeps, with the session settings its connections
  // start with: statements planned for each execution's values, no JIT compiling.
  max: 10,
  onnotice: () => {},
  types: { text: asText },
  connection: { application_name: 'bmet-bench-floor', plan_cache_mode: 'force_custom_plan', jit: 'off' },
});

/** Runs one list's statements as one request, in a transaction where the console used one. */
async function answer(statements: LoggedStatement[]) {
  const inTransaction = statements.some((statement) => /^\s*begin\b/i.test(statement.text));
  const run = (client: postgres.Sql, statement: LoggedStatement) =>
    client.unsafe(statement.text, statement.parameters as never[], { prepare: true });
  if (!inTransaction) {
    // Every value is known in advance, so statements the console sent one after another (a page,
    // then its drivers) can all go at once: the floor waits for the slowest only.
    return Promise.all(statements.map((statement) => run(sql, statement)));
  }
  const reserved = await sql.reserve();
  try {
    const rows = [];
    for (const statement of statements) rows.push(await run(reserved, statement));
    return rows;
  } finally {
    reserved.release();
  }
}

const app = Fastify({ logger: false });
app.get<{ Params: { list: string } }>('/lists/:list', async (request, reply) => {
  const statements = lists[Number(request.params.list)];
  if (!statements) return reply.code(404).send({ error: 'no such list' });
  return answer(statements);
});
app.get('/ready', async () => ({ ready: true }));

const address = await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log(`floor listening on ${address}`);
const stop = () =>
  void app
    .close()
    .then(() => sql.end({ timeout: 1 }))
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
