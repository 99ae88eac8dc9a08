import { isDeepStrictEqual } from 'node:util';
import { fillPlaceholders, sql } from 'drizzle-orm';
import type { BuiltQuery } from './row-reader';

type Built = { sql: string; params: unknown[] };

/** What a shape's builder answers: queries to build, and anything else it wants kept with them. */
type Shape = Record<string, unknown>;

/** A builder's queries as they are run: each query's text built once, its values filled in. */
export type ShapeQueries<S extends Shape> = { [K in keyof S]: Kept<S[K]> };
/** Distributes over a union, so that a query or null stays a (kept) query or null. */
type Kept<T> = T extends BuiltQuery ? BuiltQuery : T;

const isBuiltQuery = (value: unknown): value is BuiltQuery =>
  typeof value === 'object' && value !== null && typeof (value as BuiltQuery).toSQL === 'function';

/** How many shapes one builder keeps; a request can name a few hundred page sizes. */
const SHAPES_KEPT = 500;

/**
 * Queries built once per shape and then only given their values, as Drizzle's prepared queries are:
 * `build` is called with a placeholder (sql.placeholder) in place of each value, the built text
 * and parameters are kept under the shape's name, and each later call fills the placeholders in
 * (fillPlaceholders). A value goes to the driver as it is given (Drizzle does not encode a
 * placeholder compared to a column), so give values as the statement takes them: a timestamp as
 * its ISO text, say. Building a list page's query
 * walks Drizzle's whole expression tree, 0.7 ms of a driver page's server time at every request.
 *
 * `shape` must name everything that changes the query's text other than `values`: which filters
 * apply, the order, the caller's role, a page size written into the text. A value the builder
 * takes from anywhere but `values` would be kept for every later call of its shape, so outside
 * production every call also builds the query from its real values and throws if the two differ.
 */
export function queryShapes(options: { check?: boolean } = {}) {
  const check = options.check ?? process.env.NODE_ENV !== 'production';
  const shapes = new Map<string, { built: Map<string, Built>; shape: Shape }>();
  return <Values extends Record<string, unknown>, S extends Shape>(
    shapeName: string,
    values: Values,
    build: (values: Values) => S,
  ): ShapeQueries<S> => {
    let kept = shapes.get(shapeName);
    if (!kept) {
      const placeholders = Object.fromEntries(
        Object.keys(values).map((name) => [name, sql.placeholder(name)]),
      ) as unknown as Values;
      const shape: Shape = build(placeholders);
      const built = new Map<string, Built>();
      for (const [name, value] of Object.entries(shape))
        if (isBuiltQuery(value)) built.set(name, value.toSQL());
      kept = { built, shape };
      if (shapes.size >= SHAPES_KEPT) shapes.delete(shapes.keys().next().value!);
      shapes.set(shapeName, kept);
    }
    const fresh = check ? build(values) : null;
    if (fresh) compare(shapeName, kept, fresh, values);
    const answer: Record<string, unknown> = { ...kept.shape };
    for (const [name, built] of kept.built) answer[name] = filled(built, values);
    return answer as ShapeQueries<S>;
  };
}

/** A kept query given this call's values. */
function filled(built: Built, values: Record<string, unknown>): BuiltQuery {
  return { toSQL: () => ({ sql: built.sql, params: fillPlaceholders(built.params, values) }) };
}

/**
 * Throws unless a shape kept from placeholders answers what `fresh`, built from the call's real
 * values, does: the same queries (text and parameters) and the same plain values under each name.
 */
function compare(
  shapeName: string,
  kept: { built: Map<string, Built>; shape: Shape },
  fresh: Shape,
  values: Record<string, unknown>,
) {
  const differs = (name: string) =>
    new Error(
      `queryShapes: shape ${shapeName} built ${name} otherwise than its values would: a value not passed in values, or a shape name that misses a difference`,
    );
  for (const name of new Set([...Object.keys(fresh), ...Object.keys(kept.shape)])) {
    const value = fresh[name];
    const built = kept.built.get(name);
    if (isBuiltQuery(value) !== (built !== undefined)) throw differs(name);
    if (built && isBuiltQuery(value)) {
      const expected = value.toSQL();
      const answered = filled(built, values).toSQL();
      if (answered.sql !== expected.sql || !isDeepStrictEqual(answered.params, expected.params)) {
        throw differs(name);
      }
    } else if ((value === null || typeof value !== 'object') && value !== kept.shape[name]) {
      throw differs(name);
    }
  }
}
