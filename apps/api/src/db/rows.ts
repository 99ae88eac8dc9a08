/** The rows of a raw `db.execute` result, whichever driver answered (postgres.js or PGlite). */
export function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? result : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
}
