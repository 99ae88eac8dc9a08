import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/test-app';
import { operationIdOf } from './openapi';

const t = useTestApp();

type Operation = {
  operationId?: string;
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
};

async function document() {
  const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  return response.json<{
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, unknown> };
  }>();
}

const operations = (doc: Awaited<ReturnType<typeof document>>) =>
  Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );

describe('the OpenAPI document', () => {
  it('names every operation once', async () => {
    const ids = operations(await document()).map(({ operation }) => operation.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z]+[A-Za-z]+$/.test(id))).toBe(true);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(operationIdOf('GET', '/api/drivers/driver/:id/documents/:key/image')).toBe(
      'getDriversDriverByIdDocumentsByKeyImage',
    );
    expect(operationIdOf('POST', '/api/city_dealer/create')).toBe('postCityDealerCreate');
  });

  it('writes the error body once and refers to it from every error answer, 429 included', async () => {
    const doc = await document();
    expect(doc.components.schemas.ErrorBody).toMatchObject({ type: 'object', required: ['error', 'code'] });
    for (const { path, method, operation } of operations(doc)) {
      if (!path.startsWith('/api/')) continue;
      expect(Object.keys(operation.responses), `${method} ${path}`).toContain('429');
      for (const [status, answer] of Object.entries(operation.responses)) {
        // The readiness probe's 503 says which check failed, in a body of its own.
        if (Number(status) < 400 || !answer.content || path === '/api/ready') continue;
        expect(answer.content['application/json']?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        });
      }
    }
  });

  it('describes the bodies that are not JSON: document images and the position stream', async () => {
    const doc = await document();
    const image = doc.paths['/api/drivers/driver/{id}/documents/{key}/image']!;
    const binary = { schema: { type: 'string', format: 'binary' } };
    expect(image.get!.responses['200']!.content).toEqual({ 'image/jpeg': binary, 'image/png': binary });
    expect(image.put!.requestBody!.content).toEqual({ 'image/jpeg': binary, 'image/png': binary });
    expect(
      Object.keys(doc.paths['/api/drivers/location/{driverKey}/stream']!.get!.responses['200']!.content!),
    ).toEqual(['text/event-stream']);
  });

  it('describes the CSV exports: a text/csv body, by bearer token or download ticket', async () => {
    const doc = await document();
    const exports = Object.keys(doc.paths).filter((path) => path.endsWith('/export.csv'));
    expect(exports).toEqual(
      expect.arrayContaining([
        '/api/drivers/export.csv',
        '/api/trips/export.csv',
        '/api/customers/export.csv',
        '/api/city_dealer/export.csv',
        '/api/franchise/export.csv',
      ]),
    );
    for (const path of exports) {
      const operation = doc.paths[path]!.get! as Operation & { security?: unknown };
      expect(Object.keys(operation.responses['200']!.content!), path).toEqual(['text/csv']);
      expect(operation.security, path).toEqual([{ bearer: [] }, { downloadTicket: [] }]);
    }
  });
});
