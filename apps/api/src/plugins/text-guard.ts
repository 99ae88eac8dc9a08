import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '@bmet/shared/errors';
import { findTextProblem } from '../lib/text';

/**
 * PostgreSQL text cannot hold U+0000 or a lone UTF-16 surrogate: a request carrying one in any
 * parameter, query or body field would fail in the database with a 500 (or be stored altered).
 * Every /api request is checked once, before validation, and refused with a 400.
 */
export const textGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const found = findTextProblem(part);
      if (found) {
        throw new AppError('VALIDATION', `${found.field}: ${found.problem}`, {
          fieldErrors: { [found.field]: [found.problem] },
        });
      }
    }
  });
});
