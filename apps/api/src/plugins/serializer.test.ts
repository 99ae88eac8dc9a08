import Fastify from 'fastify';
import { serializerCompiler as encodingSerializer } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { driverListResponseSchema } from '@bmet/shared/schemas/driver';
import { responseSerializer } from './serializer';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A server answering `answer` on GET / through a response schema. */
async function serving(schema: z.ZodType, answer: unknown) {
  const app = Fastify();
  apps.push(app);
  app.setSerializerCompiler(responseSerializer);
  app.get('/', { schema: { response: { 200: schema } } }, async () => answer);
  return app.inject({ method: 'GET', url: '/' });
}

const driver = {
  id: '6df4b3db-bd83-4d92-ac29-9d12470c7d79',
  name: 'Ravi Sharma',
  email: null,
  phoneNumber: '+919876543210',
  country: 'India',
  state: 'maharashtra',
  franchiseId: null,
  franchiseName: null,
  carModel: 'Tata Nexon EV',
  vehicleNumber: 'MH 12 AB 1234',
  carType: null,
  position: { lat: 18.52, long: 73.85 },
  positionAt: '2026-11-27T06:30:00.000Z',
  createdAt: '2026-01-02T03:04:05.000Z',
  deletedAt: null,
  compliance: {
    compliant: false,
    problems: [{ document: 'aadharCard', problem: 'missing' }],
    checks: [{ check: 'police_verification', problem: 'expired' }],
    vehicle: [{ problem: 'over_age', ageLimitYears: 8 }],
  },
};

describe('answers written through their response schema', () => {
  it('leaves out every field the schema does not name', async () => {
    const response = await serving(z.object({ id: z.string() }), { id: 'a', passwordHash: 'secret' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('{"id":"a"}');
  });

  it('refuses an answer that breaks its schema with a server error, and writes none of it', async () => {
    const response = await serving(z.object({ total: z.number().int() }), { total: 'many' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('many');
  });

  it('refuses a response schema that is not zod when the route is registered', async () => {
    const app = Fastify();
    apps.push(app);
    app.setSerializerCompiler(responseSerializer);
    app.get('/', { schema: { response: { 200: { type: 'object' } } } }, async () => ({}));
    await expect(app.ready()).rejects.toThrow();
  });

  it('writes a driver page exactly as the encoding serializer did', async () => {
    const page = {
      data: { [driver.id]: { ...driver, internalNote: 'not for the client' } },
      nextCursor: null,
      total: 1,
      totalCapped: false,
    };
    const encoded = encodingSerializer({ schema: driverListResponseSchema, method: 'GET', url: '/' })(page);
    const response = await serving(driverListResponseSchema, page);
    expect(response.body).toBe(encoded);
    expect(response.json().data[driver.id]).not.toHaveProperty('internalNote');
  });
});
