import { describe, expect, it } from 'vitest';
import { leftOut, parseStatementLog } from '../bench/floor';

/** The floor of bench:http replays what PostgreSQL's statement log shows: it must read it right. */
const LOG = [
  '2026-11-30 03:07:28.306 UTC [6752] postgres@bmet_bench LOG:  duration: 0.517 ms  execute t5b1: ',
  '\t      select b.oid, b.typarray',
  '\t      from pg_catalog.pg_type a',
  '2026-11-30 03:07:28.308 UTC [6752] postgres@bmet_bench LOG:  duration: 0.111 ms  parse t5b2: select $1::text, $2::int, $3::text',
  '2026-11-30 03:07:28.309 UTC [6752] postgres@bmet_bench LOG:  duration: 0.035 ms  bind t5b2: select $1::text, $2::int, $3::text',
  "2026-11-30 03:07:28.309 UTC [6752] postgres@bmet_bench DETAIL:  parameters: $1 = 'o''brien, $2 = x', $2 = NULL, $3 = ''",
  '2026-11-30 03:07:28.310 UTC [6752] postgres@bmet_bench LOG:  duration: 0.040 ms  execute t5b2: select $1::text, $2::int, $3::text',
  "2026-11-30 03:07:28.310 UTC [6752] postgres@bmet_bench DETAIL:  parameters: $1 = 'o''brien, $2 = x', $2 = NULL, $3 = ''",
  '2026-11-30 03:07:28.311 UTC [6753] postgres@bmet_bench LOG:  duration: 0.004 ms  statement: begin',
  '2026-11-30 03:07:28.312 UTC [6753] postgres@bmet_bench LOG:  duration: 2.001 ms  execute s9: select "id"',
  '\tfrom "sessions" where "id" = $1',
  "2026-11-30 03:07:28.312 UTC [6753] postgres@bmet_bench DETAIL:  parameters: $1 = 'a1'",
  '2026-11-30 03:07:28.313 UTC [6754] postgres@bmet_bench LOG:  checkpoint starting: time',
  '',
].join('\n');

describe("the floor's reading of PostgreSQL's statement log", () => {
  const statements = parseStatementLog(LOG);

  it('finds each statement executed once, in order, its further lines kept', () => {
    expect(statements.map((statement) => statement.text.replace(/\s+/g, ' ').trim())).toEqual([
      'select b.oid, b.typarray from pg_catalog.pg_type a',
      'select $1::text, $2::int, $3::text',
      'begin',
      'select "id" from "sessions" where "id" = $1',
    ]);
  });

  it('reads parameters with quotes, commas, NULL and empty text', () => {
    expect(statements[1]!.parameters).toEqual(["o'brien, $2 = x", null, '']);
    expect(statements[2]!.parameters).toEqual([]);
  });

  it('leaves out the session lookup and a new connection’s type catalogue', () => {
    expect(
      statements.filter((statement) => !leftOut(statement)).map((statement) => statement.text.trim()),
    ).toEqual(['select $1::text, $2::int, $3::text', 'begin']);
  });
});
