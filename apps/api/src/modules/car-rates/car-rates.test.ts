import { beforeAll, describe, expect, it } from 'vitest';
import { RATE_FIELDS, type RateField } from '@bmet/shared/constants';
import { m } from '@bmet/shared/paraglide/messages';
import { RATE_FIELD_MAX, type AllRates, type StateRates } from '@bmet/shared/schemas/car-rate';
import { BASE_RATES } from '../../seed/india';
import { useTestApp } from '../../../test/test-app';
import {
  createStaff,
  historyRowsOf,
  postCopy,
  putRates,
  rateSet,
  resetState,
  storedRates,
  type Staff,
} from '../../../test/car-rate-fixtures';

const t = useTestApp();
let admin: Staff;
let dealer: Staff;
let franchise: Staff;

beforeAll(async () => {
  admin = await createStaff(t.db, { role: 'admin', displayName: 'Rates Admin' });
  dealer = await createStaff(t.db, { role: 'city_dealer', state: 'goa' });
  franchise = await createStaff(t.db, { role: 'franchise', state: 'goa', dealerId: dealer.id });
});

const getAll = (who: Staff | null) =>
  t.app.inject({ method: 'GET', url: '/api/admin/getAllRates', headers: who?.headers ?? {} });

describe('who may use the rates', () => {
  const calls = [
    ['GET /api/admin/getAllRates', (who: Staff | null) => getAll(who)],
    [
      'PUT /api/admin/updateRates/goa',
      (who: Staff | null) => putRates(t, who, 'goa', { mini: rateSet('mini') }),
    ],
    ['POST /api/admin/copyRates', (who: Staff | null) => postCopy(t, who, { from: 'goa', to: 'kerala' })],
    [
      'GET /api/admin/rates-history/goa',
      (who: Staff | null) =>
        t.app.inject({ method: 'GET', url: '/api/admin/rates-history/goa', headers: who?.headers ?? {} }),
    ],
  ] as const;

  it.each(calls)('%s answers 401 without a token, 403 to a city dealer and a franchise', async (_, call) => {
    await resetState(t.db, 'goa', ['mini']);
    await resetState(t.db, 'kerala', []);
    const anonymous = await call(null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    for (const who of [dealer, franchise]) {
      const response = await call(who);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: m.forbidden(), code: 'FORBIDDEN' });
    }
    expect(await storedRates(t.db, 'goa')).toEqual({ mini: { ...BASE_RATES.mini, version: 1 } });
    expect(await storedRates(t.db, 'kerala')).toEqual({});
  });
});

describe('GET /api/admin/getAllRates', () => {
  it('answers every state’s rates keyed by state then car type, with versions', async () => {
    await resetState(t.db, 'assam', ['mini', 'auto']);
    await resetState(t.db, 'bihar', []);
    const response = await getAll(admin);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json<{ data: AllRates }>();
    expect(data.assam).toEqual({
      mini: { ...BASE_RATES.mini, version: 1 },
      auto: { ...BASE_RATES.auto, version: 1 },
    });
    expect(Object.keys(data.assam!)).toEqual(['mini', 'auto']);
    expect(data).not.toHaveProperty('bihar');
  });
});

describe('PUT /api/admin/updateRates/:state', () => {
  it('saves a rate set based on its current version and answers the state’s rates', async () => {
    await resetState(t.db, 'delhi', ['sedan', 'suv']);
    const sent = rateSet('sedan', { basePrice: 80, per_km: 16.5, version: 1 });
    const response = await putRates(t, admin, 'delhi', { sedan: sent });
    expect(response.statusCode, response.body).toBe(200);
    const expected: StateRates = {
      sedan: { ...rateSet('sedan', { basePrice: 80, per_km: 16.5 }), version: 2 },
      suv: { ...BASE_RATES.suv, version: 1 },
    };
    expect(response.json()).toEqual({ data: expected });
    expect(await storedRates(t.db, 'delhi')).toEqual(expected);
  });

  it('saves several car types at once', async () => {
    await resetState(t.db, 'gujarat', ['mini', 'auto']);
    const response = await putRates(t, admin, 'gujarat', {
      mini: rateSet('mini', { extra: 5, version: 1 }),
      auto: rateSet('auto', { extra: 6, version: 1 }),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedRates(t.db, 'gujarat')).toEqual({
      mini: { ...rateSet('mini', { extra: 5 }), version: 2 },
      auto: { ...rateSet('auto', { extra: 6 }), version: 2 },
    });
  });

  it('adds a car type the state does not have, without a version', async () => {
    await resetState(t.db, 'haryana', ['mini']);
    const response = await putRates(t, admin, 'haryana', { erickshaw: rateSet('erickshaw') });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: StateRates }>().data.erickshaw).toEqual({
      ...BASE_RATES.erickshaw,
      version: 1,
    });
    const history = await historyRowsOf(t.db, 'haryana');
    expect(history).toMatchObject([{ carType: 'erickshaw', action: 'create', version: 1, before: null }]);
  });

  it('adds rates to a state that has none', async () => {
    await resetState(t.db, 'sikkim', []);
    const response = await putRates(t, admin, 'sikkim', { auto: rateSet('auto') });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedRates(t.db, 'sikkim')).toEqual({ auto: { ...BASE_RATES.auto, version: 1 } });
  });

  it('keeps the version when the values sent are the ones stored', async () => {
    await resetState(t.db, 'tripura', ['mini']);
    const response = await putRates(t, admin, 'tripura', { mini: rateSet('mini', { version: 1 }) });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedRates(t.db, 'tripura')).toEqual({ mini: { ...BASE_RATES.mini, version: 1 } });
    expect(await historyRowsOf(t.db, 'tripura')).toEqual([]);
  });

  it('accepts zero and the upper bounds', async () => {
    await resetState(t.db, 'punjab', ['suv']);
    const atBounds = Object.fromEntries(RATE_FIELDS.map((field) => [field, RATE_FIELD_MAX[field]]));
    let response = await putRates(t, admin, 'punjab', { suv: { ...atBounds, version: 1 } });
    expect(response.statusCode, response.body).toBe(200);
    const zeros = Object.fromEntries(RATE_FIELDS.map((field) => [field, 0]));
    response = await putRates(t, admin, 'punjab', { suv: { ...zeros, version: 2 } });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedRates(t.db, 'punjab')).toEqual({ suv: { ...zeros, version: 3 } });
  });
});

describe('validation: anything but finite numbers of zero or more within bounds answers 400', () => {
  const STATE = 'odisha';

  /** Sends a body and checks the 400, its field errors and that nothing changed. */
  async function expectRefused(
    body: unknown,
    fieldErrors: Record<string, unknown>,
    options: { url?: string; raw?: string } = {},
  ) {
    await resetState(t.db, STATE, ['mini', 'sedan']);
    const before = await storedRates(t.db, STATE);
    const response = options.raw
      ? await t.app.inject({
          method: 'PUT',
          url: options.url ?? `/api/admin/updateRates/${STATE}`,
          headers: { ...admin.headers, 'content-type': 'application/json' },
          payload: options.raw,
        })
      : await putRates(t, admin, options.url ?? STATE, body);
    expect(response.statusCode, response.body).toBe(400);
    const answer = response.json();
    expect(answer).toMatchObject({ code: 'VALIDATION', error: expect.any(String) });
    expect(answer.fieldErrors).toMatchObject(fieldErrors);
    expect(await storedRates(t.db, STATE)).toEqual(before);
    expect(await historyRowsOf(t.db, STATE)).toEqual([]);
    return answer as { error: string; fieldErrors: Record<string, string[]> };
  }

  const cases: [string, unknown, RateField][] = RATE_FIELDS.flatMap(
    (field): [string, unknown, RateField][] => [
      ['negative', -1, field],
      ['a tiny negative', -0.01, field],
      ["the string 'NaN'", 'NaN', field],
      ['a numeric string', '12', field],
      ['an empty string', '', field],
      ['null', null, field],
      ['a boolean', true, field],
      ['above its bound', RATE_FIELD_MAX[field] + 1, field],
      ['huge', 1e300, field],
    ],
  );

  it.each(cases)('refuses %s as %s', async (_, value, field) => {
    const answer = await expectRefused(
      { sedan: rateSet('sedan', { [field]: value, version: 1 }) },
      { [`sedan.${field}`]: [expect.any(String)] },
    );
    expect(Object.keys(answer.fieldErrors)).toEqual([`sedan.${field}`]);
  });

  it.each(RATE_FIELDS)('refuses a set without %s', async (field) => {
    const set: Record<string, unknown> = rateSet('sedan', { version: 1 });
    delete set[field];
    const answer = await expectRefused({ sedan: set }, { [`sedan.${field}`]: ['This field is required.'] });
    expect(answer.error).toBe(`sedan.${field}: This field is required.`);
  });

  it('names the bound it applies', async () => {
    await expectRefused(
      { sedan: rateSet('sedan', { basePrice: 100_001, rushHour: 10.5, version: 1 }) },
      { 'sedan.basePrice': ['Must be at most 100000.'], 'sedan.rushHour': ['Must be at most 10.'] },
    );
  });

  it('refuses Infinity (1e309 in JSON)', async () => {
    const raw = JSON.stringify({ sedan: rateSet('sedan', { version: 1 }) }).replace(
      '"basePrice":70',
      '"basePrice":1e309',
    );
    expect(raw).toContain('1e309');
    await expectRefused(null, { 'sedan.basePrice': [expect.any(String)] }, { raw });
  });

  it('refuses an unknown field in a set', async () => {
    const answer = await expectRefused(
      { sedan: { ...rateSet('sedan', { version: 1 }), discount: 5 } },
      { sedan: ['Unknown field: discount.'] },
    );
    expect(answer.error).toBe('sedan: Unknown field: discount.');
  });

  it('refuses an unknown car type', async () => {
    const answer = await expectRefused(
      { sedan: rateSet('sedan', { version: 1 }), bus: rateSet('suv') },
      { _: [m.unknownCarTypes({ count: ['bus'].length, keys: ['bus'].join(', ') })] },
    );
    expect(answer.error).toBe(m.unknownCarTypes({ count: ['bus'].length, keys: ['bus'].join(', ') }));
  });

  it('refuses a car type spelled with capitals', async () => {
    await expectRefused(
      { Sedan: rateSet('sedan', { version: 1 }) },
      { _: [m.unknownCarTypes({ count: ['Sedan'].length, keys: ['Sedan'].join(', ') })] },
    );
  });

  it('refuses the whole body when one set of several is wrong', async () => {
    await expectRefused(
      {
        mini: rateSet('mini', { basePrice: 99, version: 1 }),
        sedan: rateSet('sedan', { per_km: -5, version: 1 }),
      },
      { 'sedan.per_km': ['Must be at least 0.'] },
    );
  });

  it.each([
    ['zero', 0],
    ['a fraction', 1.5],
    ['a string', '1'],
    ['negative', -1],
  ])('refuses a version that is %s', async (_, version) => {
    await expectRefused(
      { sedan: { ...rateSet('sedan'), version } },
      { 'sedan.version': [expect.any(String)] },
    );
  });

  it('refuses a body without any car type', async () => {
    const answer = await expectRefused({}, { _: [m.noRatesSent()] });
    expect(answer.error).toBe(m.noRatesSent());
  });

  it.each([
    ['an array', [rateSet('sedan', { version: 1 })]],
    ['a number', 42],
    ['a set that is not an object', { sedan: 70 }],
  ])('refuses a body that is %s', async (_, body) => {
    await expectRefused(body, {});
  });

  it('refuses an unknown state', async () => {
    const answer = await expectRefused({ sedan: rateSet('sedan', { version: 1 }) }, {}, { url: 'atlantis' });
    expect(answer).toEqual({
      error: `state: ${m.unknownState()}`,
      code: 'VALIDATION',
      fieldErrors: { state: [m.unknownState()] },
    });
  });

  it('refuses a state not written in lowercase', async () => {
    await expectRefused(
      { sedan: rateSet('sedan', { version: 1 }) },
      { state: [m.unknownState()] },
      { url: 'Odisha' },
    );
  });
});

describe('optimistic concurrency', () => {
  it('answers 409 to a save based on an old version, and changes nothing', async () => {
    await resetState(t.db, 'manipur', ['mini']);
    const first = await putRates(t, admin, 'manipur', {
      mini: rateSet('mini', { basePrice: 55, version: 1 }),
    });
    expect(first.statusCode, first.body).toBe(200);
    const stale = await putRates(t, admin, 'manipur', {
      mini: rateSet('mini', { basePrice: 60, version: 1 }),
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ error: m.ratesConflict(), code: 'CONFLICT' });
    expect(await storedRates(t.db, 'manipur')).toEqual({
      mini: { ...rateSet('mini', { basePrice: 55 }), version: 2 },
    });
    expect(await historyRowsOf(t.db, 'manipur')).toHaveLength(1);
  });

  it('answers 409 to a save of an existing set without a version', async () => {
    await resetState(t.db, 'mizoram', ['suv']);
    const response = await putRates(t, admin, 'mizoram', { suv: rateSet('suv', { basePrice: 1 }) });
    expect(response.statusCode).toBe(409);
    expect(await storedRates(t.db, 'mizoram')).toEqual({ suv: { ...BASE_RATES.suv, version: 1 } });
  });

  it('answers 409 to a version sent for a car type the state does not have', async () => {
    await resetState(t.db, 'nagaland', []);
    const response = await putRates(t, admin, 'nagaland', { suv: rateSet('suv', { version: 3 }) });
    expect(response.statusCode).toBe(409);
    expect(await storedRates(t.db, 'nagaland')).toEqual({});
  });

  it('saves none of the sets of a request when one of them is stale', async () => {
    await resetState(t.db, 'meghalaya', ['mini', 'sedan']);
    await putRates(t, admin, 'meghalaya', { sedan: rateSet('sedan', { extra: 1, version: 1 }) });
    const response = await putRates(t, admin, 'meghalaya', {
      mini: rateSet('mini', { extra: 9, version: 1 }),
      sedan: rateSet('sedan', { extra: 9, version: 1 }),
    });
    expect(response.statusCode).toBe(409);
    expect(await storedRates(t.db, 'meghalaya')).toEqual({
      mini: { ...BASE_RATES.mini, version: 1 },
      sedan: { ...rateSet('sedan', { extra: 1 }), version: 2 },
    });
    expect(await historyRowsOf(t.db, 'meghalaya')).toHaveLength(1);
  });
});
