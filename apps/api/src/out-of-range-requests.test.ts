import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_RANGE, OFFSET_RANGE } from '@bmet/shared/constants';
import { errorBodySchema } from '@bmet/shared/errors';
import { m } from '@bmet/shared/paraglide/messages';
import { buildApp, type App } from './app';
import { encodeCursor } from './lib/paging';
import {
  authHeader,
  signInAs,
  TEST_CONFIG,
  testAppOptions,
  useTestApp,
  type SignedIn,
} from '../test/test-app';
import { getTestDatabase } from '../test/test-database';

/**
 * Values the schemas' formats allow but no date library or database column holds (the day after
 * 9999-12-31, year 0, a bigint past 2^63) are refused with the one error body and a message that
 * says what is allowed, never answered with a server error from the query.
 */

const t = useTestApp();
let admin: SignedIn;
beforeAll(async () => {
  admin = await signInAs(t, 'admin');
});

type Language = 'en' | 'hi';

const get = (url: string, language: Language = 'en') =>
  t.app.inject({ method: 'GET', url, headers: { ...authHeader(admin.token), 'accept-language': language } });

const outOfRange = (locale: Language) => m.dateOutOfRange(DAY_RANGE, { locale });

/** A 400 VALIDATION in the one error body, with the message `text` gives for each of `fields`. */
function expectRefused(
  response: LightMyRequestResponse,
  fields: string[],
  language: Language = 'en',
  text: (locale: Language) => string = outOfRange,
) {
  expect(response.statusCode, response.body).toBe(400);
  const message = text(language);
  const body = errorBodySchema.parse(response.json());
  expect(body.code).toBe('VALIDATION');
  expect(body.fieldErrors).toEqual(Object.fromEntries(fields.map((field) => [field, [message]])));
  expect(body.error).toBe(
    fields.length === 1 ? `${fields[0]}: ${message}` : m.validationFailed({}, { locale: language }),
  );
}

describe('a cursor holding a value the database cannot read', () => {
  it('answers 400 for a compliance cursor on the year 0', async () => {
    const cursor = encodeCursor({
      s: 'expiresOn',
      o: 'asc',
      k: ['0000-01-01', '00000000-0000-4000-8000-000000000000', 'aadhaarCard'],
    });
    for (const language of ['en', 'hi'] as const) {
      const response = await get(`/api/compliance?cursor=${cursor}`, language);
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBodySchema.parse(response.json())).toEqual({
        error: m.invalidCursor({}, { locale: language }),
        code: 'VALIDATION',
        fieldErrors: { cursor: [m.invalidCursor({}, { locale: language })] },
      });
    }
  });

  it('answers 400 for an audit cursor whose id does not fit a bigint', async () => {
    const cursor = encodeCursor({
      s: 'at',
      o: 'desc',
      k: ['2026-01-01T00:00:00.000000Z', '9999999999999999999'],
    });
    const response = await get(`/api/audit?cursor=${cursor}`);
    expect(response.statusCode, response.body).toBe(400);
    expect(errorBodySchema.parse(response.json())).toEqual({
      error: m.invalidCursor(),
      code: 'VALIDATION',
      fieldErrors: { cursor: [m.invalidCursor()] },
    });
    // The largest bigint is still read as a cursor: the trail after it is every entry before that time.
    const largest = encodeCursor({
      s: 'at',
      o: 'desc',
      k: ['2026-01-01T00:00:00.000000Z', '9223372036854775807'],
    });
    expect((await get(`/api/audit?cursor=${largest}`)).statusCode).toBe(200);
  });
});

describe('a date whose next day no date can hold', () => {
  it.each([
    '/api/trips?to=9999-12-31',
    '/api/trips/export.csv?to=9999-12-31',
    '/api/audit?to=9999-12-31',
    '/api/audit/export.csv?to=9999-12-31',
  ])('answers 400 to %s, in English and Hindi', async (url) => {
    for (const language of ['en', 'hi'] as const) {
      expectRefused(await get(url, language), ['to'], language);
    }
  });

  it('answers 400 to a dashboard period at the end of year 9999', async () => {
    for (const language of ['en', 'hi'] as const) {
      const response = await get('/api/stats/overview?from=9999-12-30&to=9999-12-31', language);
      expectRefused(response, ['from', 'to'], language);
    }
  });
});

describe('a moment that falls past year 9999 in UTC or in India', () => {
  const moment = encodeURIComponent('9999-12-31T23:59:59-12:00');

  it('answers 400 to a dashboard period', async () => {
    for (const language of ['en', 'hi'] as const) {
      const response = await get(`/api/stats/daily?from=${moment}&to=${moment}`, language);
      expectRefused(response, ['from', 'to'], language);
    }
  });

  it('answers 400 to the fleet map’s since', async () => {
    for (const language of ['en', 'hi'] as const) {
      expectRefused(await get(`/api/fleet?since=${moment}`, language), ['since'], language);
    }
  });
});

describe('a moment whose offset the database cannot read', () => {
  const offsetOutOfRange = (locale: Language) => m.offsetOutOfRange(OFFSET_RANGE, { locale });

  it('answers 400 to offsets past -12:00 and +14:00 (ISO 8601 allows ±23:59)', async () => {
    for (const language of ['en', 'hi'] as const) {
      const trips = await get(`/api/trips?from=${encodeURIComponent('2026-01-01T00:00:00+23:59')}`, language);
      expectRefused(trips, ['from'], language, offsetOutOfRange);
      const period = `from=${encodeURIComponent('2026-01-01T00:00:00-16:00')}&to=2026-01-02`;
      expectRefused(
        await get(`/api/stats/overview?${period}`, language),
        ['from'],
        language,
        offsetOutOfRange,
      );
    }
  });
});

describe('ordinary dates and moments', () => {
  it('are still answered at both ends of the range', async () => {
    const first = DAY_RANGE.first;
    const last = DAY_RANGE.last;
    for (const url of [
      `/api/trips?from=${first}&to=${last}`,
      `/api/audit?from=${first}&to=${last}`,
      `/api/stats/daily?from=${encodeURIComponent(`${last}T23:59:59-12:00`)}&to=${encodeURIComponent(`${last}T23:59:59-12:00`)}`,
      `/api/stats/overview?from=${encodeURIComponent(`${first}T00:00:00+14:00`)}&to=${first}`,
      `/api/fleet?since=${encodeURIComponent(`${last}T23:59:59-12:00`)}`,
      `/api/fleet?since=${encodeURIComponent(`${first}T00:00:00+14:00`)}`,
    ]) {
      expect((await get(url)).statusCode, url).toBe(200);
    }
  });

  it('are refused just outside the range', async () => {
    expectRefused(await get('/api/trips?from=1899-12-31'), ['from']);
    expectRefused(await get('/api/audit?from=3000-01-01'), ['from']);
  });
});

describe('a path the web app’s file server refuses', () => {
  let web: App;
  let webDist: string;
  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'bmet-web-'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    web = await buildApp({
      ...testAppOptions((await getTestDatabase()).db),
      config: { ...TEST_CONFIG, webDist },
    });
  });
  afterAll(async () => {
    await web?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('answers a validation error whose words say so, not "Forbidden"', async () => {
    for (const language of ['en', 'hi'] as const) {
      const response = await web.inject({
        method: 'GET',
        url: `/api/drivers/driver/${'a'.repeat(5000)}`,
        headers: { ...authHeader(admin.token), 'accept-language': language },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(errorBodySchema.parse(response.json())).toEqual({
        error: m.badUrl({}, { locale: language }),
        code: 'VALIDATION',
      });
    }
  });
});
