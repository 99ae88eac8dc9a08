import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import type { RateHistoryResponse, StateRates } from '@bmet/shared/schemas/car-rate';
import { BASE_RATES } from '../../seed/india';
import { useTestApp } from '../../../test/test-app';
import {
  auditRowsOf,
  createStaff,
  historyRowsOf,
  postCopy,
  putRates,
  rateSet,
  resetState,
  storedRates,
  type Staff,
} from '../../../test/car-rate-fixtures';
import { stateLabel } from '@bmet/shared/labels';

const t = useTestApp();
let admin: Staff;
let unnamed: Staff;

beforeAll(async () => {
  admin = await createStaff(t.db, { role: 'admin', displayName: 'Meera Iyer' });
  unnamed = await createStaff(t.db, { role: 'admin', displayName: null, email: 'no.name.rates@example.in' });
});

const getHistory = (who: Staff, state: string, query = '') =>
  t.app.inject({
    method: 'GET',
    url: `/api/admin/rates-history/${encodeURIComponent(state)}${query}`,
    headers: who.headers,
  });

const ok = async (response: Awaited<ReturnType<typeof putRates>>) => {
  expect(response.statusCode, response.body).toBe(200);
  return response;
};

describe('the rates history', () => {
  it('keeps every change with author, time, and the values before and after, newest first', async () => {
    await resetState(t.db, 'tamil nadu', ['sedan']);
    const startedAt = Date.now();
    await ok(await putRates(t, admin, 'tamil nadu', { suv: rateSet('suv') }));
    await ok(
      await putRates(t, unnamed, 'tamil nadu', { sedan: rateSet('sedan', { basePrice: 75, version: 1 }) }),
    );
    await ok(
      await putRates(t, admin, 'tamil nadu', { sedan: rateSet('sedan', { basePrice: 80, version: 2 }) }),
    );

    const response = await getHistory(admin, 'tamil nadu');
    expect(response.statusCode, response.body).toBe(200);
    const { data, nextCursor } = response.json<RateHistoryResponse>();
    expect(nextCursor).toBeNull();
    expect(data).toHaveLength(3);
    expect(data[0]).toMatchObject({
      state: 'tamil nadu',
      carType: 'sedan',
      action: 'update',
      version: 3,
      before: rateSet('sedan', { basePrice: 75 }),
      after: rateSet('sedan', { basePrice: 80 }),
      copiedFrom: null,
      changedBy: { id: admin.id, name: 'Meera Iyer' },
    });
    expect(data[1]).toMatchObject({
      carType: 'sedan',
      version: 2,
      before: BASE_RATES.sedan,
      after: rateSet('sedan', { basePrice: 75 }),
      // Without a display name, the author is named by email.
      changedBy: { id: unnamed.id, name: 'no.name.rates@example.in' },
    });
    expect(data[2]).toMatchObject({
      carType: 'suv',
      action: 'create',
      version: 1,
      before: null,
      after: BASE_RATES.suv,
    });
    for (const entry of data) {
      expect(Date.parse(entry.changedAt)).toBeGreaterThanOrEqual(startedAt - 1000);
      expect(Date.parse(entry.changedAt)).toBeLessThanOrEqual(Date.now() + 1000);
    }
  });

  it('pages with a cursor', async () => {
    await resetState(t.db, 'uttarakhand', ['mini']);
    for (let version = 1; version <= 5; version++) {
      await ok(
        await putRates(t, admin, 'uttarakhand', { mini: rateSet('mini', { extra: version, version }) }),
      );
    }
    const first = (await getHistory(admin, 'uttarakhand', '?limit=2')).json<RateHistoryResponse>();
    expect(first.data.map((entry) => entry.version)).toEqual([6, 5]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (
      await getHistory(admin, 'uttarakhand', `?limit=2&cursor=${first.nextCursor}`)
    ).json<RateHistoryResponse>();
    expect(second.data.map((entry) => entry.version)).toEqual([4, 3]);
    const third = (
      await getHistory(admin, 'uttarakhand', `?limit=2&cursor=${second.nextCursor}`)
    ).json<RateHistoryResponse>();
    expect(third.data.map((entry) => entry.version)).toEqual([2]);
    expect(third.nextCursor).toBeNull();
  });

  it('answers only the state asked for', async () => {
    await resetState(t.db, 'rajasthan', []);
    await resetState(t.db, 'telangana', []);
    await ok(await putRates(t, admin, 'telangana', { mini: rateSet('mini') }));
    const { data } = (await getHistory(admin, 'rajasthan')).json<RateHistoryResponse>();
    expect(data).toEqual([]);
  });

  it.each([
    ['an unknown state', 'atlantis', '', 'state'],
    ['a bad cursor', 'goa', '?cursor=not-ours', null],
    ['a limit above 100', 'goa', '?limit=101', 'limit'],
  ])('answers 400 to %s', async (_, state, query, field) => {
    const response = await getHistory(admin, state, query);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION' });
    if (field) expect(response.json().fieldErrors).toHaveProperty(field);
  });
});

describe('the audit log', () => {
  it('records every change with actor, request, resource id and before and after', async () => {
    await resetState(t.db, 'west bengal', ['auto']);
    const created = await ok(await putRates(t, admin, 'west bengal', { mini: rateSet('mini') }));
    const updated = await ok(
      await putRates(t, admin, 'west bengal', { auto: rateSet('auto', { per_km: 11, version: 1 }) }),
    );
    const audit = await auditRowsOf(t.db, 'west bengal', ['mini', 'auto']);
    const mine = audit.filter((row) =>
      [created.headers['x-request-id'], updated.headers['x-request-id']].includes(row.requestId ?? ''),
    );
    expect(mine).toMatchObject([
      {
        actorId: admin.id,
        action: 'create',
        resource: 'car-rates',
        resourceId: 'west bengal/mini',
        before: null,
        after: { ...BASE_RATES.mini, version: 1 },
        requestId: created.headers['x-request-id'],
      },
      {
        actorId: admin.id,
        action: 'update',
        resource: 'car-rates',
        resourceId: 'west bengal/auto',
        before: { ...BASE_RATES.auto, version: 1 },
        after: { ...rateSet('auto', { per_km: 11 }), version: 2 },
        requestId: updated.headers['x-request-id'],
      },
    ]);
  });
});

describe('POST /api/admin/copyRates', () => {
  it('copies a state’s rates onto another, with new versions, history and audit', async () => {
    await resetState(t.db, 'bihar', ['mini', 'sedan']);
    await resetState(t.db, 'chandigarh', ['sedan', 'suv']);
    await ok(await putRates(t, admin, 'bihar', { mini: rateSet('mini', { basePrice: 44, version: 1 }) }));
    await ok(await putRates(t, admin, 'bihar', { sedan: rateSet('sedan', { basePrice: 66, version: 1 }) }));
    await ok(await putRates(t, admin, 'chandigarh', { sedan: rateSet('sedan', { extra: 3, version: 1 }) }));

    const response = await postCopy(t, admin, { from: 'bihar', to: 'chandigarh' });
    expect(response.statusCode, response.body).toBe(200);
    const expected: StateRates = {
      // Added: chandigarh had no mini.
      mini: { ...rateSet('mini', { basePrice: 44 }), version: 1 },
      // Replaced, on top of the version chandigarh had.
      sedan: { ...rateSet('sedan', { basePrice: 66 }), version: 3 },
      // Not in bihar: left as it was.
      suv: { ...BASE_RATES.suv, version: 1 },
    };
    expect(response.json()).toEqual({ data: expected });
    expect(await storedRates(t.db, 'chandigarh')).toEqual(expected);
    // The source is unchanged.
    expect(await storedRates(t.db, 'bihar')).toEqual({
      mini: { ...rateSet('mini', { basePrice: 44 }), version: 2 },
      sedan: { ...rateSet('sedan', { basePrice: 66 }), version: 2 },
    });

    const history = (await historyRowsOf(t.db, 'chandigarh')).filter((row) => row.action === 'copy');
    expect(history).toMatchObject([
      { carType: 'mini', version: 1, before: null, copiedFrom: 'bihar', changedBy: admin.id },
      {
        carType: 'sedan',
        version: 3,
        before: rateSet('sedan', { extra: 3 }),
        after: rateSet('sedan', { basePrice: 66 }),
        copiedFrom: 'bihar',
      },
    ]);
    const audit = (await auditRowsOf(t.db, 'chandigarh', ['mini', 'sedan'])).filter(
      (row) => row.requestId === response.headers['x-request-id'],
    );
    expect(audit).toMatchObject([
      { action: 'copy', resourceId: 'chandigarh/mini', before: null, actorId: admin.id },
      { action: 'copy', resourceId: 'chandigarh/sedan', after: { copiedFrom: 'bihar', version: 3 } },
    ]);

    const { data } = (await getHistory(admin, 'chandigarh', '?limit=1')).json<RateHistoryResponse>();
    expect(data[0]).toMatchObject({ action: 'copy', copiedFrom: 'bihar', changedBy: { name: 'Meera Iyer' } });
  });

  it('leaves a set that already has the source’s values as it is', async () => {
    await resetState(t.db, 'chhattisgarh', ['auto']);
    await resetState(t.db, 'himachal pradesh', ['auto']);
    const response = await postCopy(t, admin, { from: 'chhattisgarh', to: 'himachal pradesh' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await storedRates(t.db, 'himachal pradesh')).toEqual({ auto: { ...BASE_RATES.auto, version: 1 } });
    expect(await historyRowsOf(t.db, 'himachal pradesh')).toEqual([]);
  });

  it.each([
    ['the same state', { from: 'goa', to: 'goa' }, 'to', m.copyToSameState()],
    ['an unknown state', { from: 'goa', to: 'atlantis' }, 'to', m.unknownState()],
    ['a missing target', { from: 'goa' }, 'to', 'This field is required.'],
    ['an unknown field', { from: 'goa', to: 'kerala', overwrite: true }, '_', 'Unknown field: overwrite.'],
  ])('answers 400 to %s, copying nothing', async (_, body, field, message) => {
    await resetState(t.db, 'goa', ['mini']);
    await resetState(t.db, 'kerala', []);
    const response = await postCopy(t, admin, body);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION', fieldErrors: { [field]: [message] } });
    expect(await storedRates(t.db, 'kerala')).toEqual({});
  });

  it('answers 400 when the source state has no rates', async () => {
    await resetState(t.db, 'arunachal pradesh', []);
    await resetState(t.db, 'andhra pradesh', ['mini']);
    const response = await postCopy(t, admin, { from: 'arunachal pradesh', to: 'andhra pradesh' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: m.noRatesToCopy({ state: stateLabel('arunachal pradesh') }),
      fieldErrors: { from: [m.noRatesToCopy({ state: stateLabel('arunachal pradesh') })] },
    });
    expect(await storedRates(t.db, 'andhra pradesh')).toEqual({ mini: { ...BASE_RATES.mini, version: 1 } });
  });

  it('makes an edit based on the version before the copy a conflict', async () => {
    await resetState(t.db, 'madhya pradesh', ['suv']);
    await resetState(t.db, 'uttar pradesh', ['suv']);
    await ok(
      await putRates(t, admin, 'madhya pradesh', { suv: rateSet('suv', { basePrice: 111, version: 1 }) }),
    );
    await ok(await postCopy(t, admin, { from: 'madhya pradesh', to: 'uttar pradesh' }));
    const stale = await putRates(t, admin, 'uttar pradesh', {
      suv: rateSet('suv', { basePrice: 1, version: 1 }),
    });
    expect(stale.statusCode).toBe(409);
    expect((await storedRates(t.db, 'uttar pradesh')).suv).toEqual({
      ...rateSet('suv', { basePrice: 111 }),
      version: 2,
    });
  });
});
