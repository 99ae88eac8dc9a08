import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@bmet/shared/errors';
import { NUL_MESSAGE } from '../lib/text';

const MAX_DEPTH = 32;

/** The path of the first string (or key) holding U+0000 in a parsed request part, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : null;
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return childPath;
    const found = findNul(child, childPath, depth + 1);
    if (found) return found;
  }
  return null;
}

/**
 * PostgreSQL text cannot hold U+0000: a request carrying it in any parameter, query or body field
 * would fail in the database with a 500. Every /api request is checked once, before validation.
 */
export const textGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = findNul(part, '');
      if (field) {
        throw new AppError('VALIDATION', `${field}: ${NUL_MESSAGE}`, {
          fieldErrors: { [field]: [NUL_MESSAGE] },
        });
      }
    }
  });
});
