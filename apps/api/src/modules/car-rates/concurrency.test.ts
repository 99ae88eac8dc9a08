import { beforeAll, describe, expect, it } from 'vitest';
import { m } from '@bmet/shared/paraglide/messages';
import { BASE_RATES } from '../../seed/india';
import { useTestApp } from '../../../test/test-app';
import {
  auditRowsOf,
  createStaff,
  historyRowsOf,
  putRates,
  rateSet,
  resetState,
  storedRates,
  type Staff,
} from '../../../test/car-rate-fixtures';

const t = useTestApp();
const SAVES = 100;
let admins: Staff[];

beforeAll(async () => {
  // A few admins, so that the saves come from different sessions as they would in real use.
  admins = [];
  for (let i = 0; i < 4; i++) admins.push(await createStaff(t.db, { role: 'admin' }));
});

describe('concurrent saves of one rate set', () => {
  it(`lets exactly one of ${SAVES} saves based on the same version win, and loses no change`, async () => {
    await resetState(t.db, 'karnataka', ['sedan']);
    // Every save differs from the stored values and from each other, so the winner is identifiable.
    const bodies = Array.from({ length: SAVES }, (_, i) => ({
      sedan: rateSet('sedan', { basePrice: 1000 + i, per_km: 20 + i / 100, version: 1 }),
    }));
    const responses = await Promise.all(
      bodies.map((body, i) => putRates(t, admins[i % admins.length]!, 'karnataka', body)),
    );

    const statuses = responses.map((response) => response.statusCode);
    const winners = statuses.flatMap((status, i) => (status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(SAVES - 1);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toEqual({ error: m.ratesConflict(), code: 'CONFLICT' });
    }

    const winner = winners[0]!;
    const { version: _, ...winnerValues } = bodies[winner]!.sedan;
    expect(await storedRates(t.db, 'karnataka')).toEqual({ sedan: { ...winnerValues, version: 2 } });
    expect(responses[winner]!.json()).toEqual({ data: { sedan: { ...winnerValues, version: 2 } } });

    // The one change is in the history and the audit log, from the stored values to the winner's.
    const history = await historyRowsOf(t.db, 'karnataka');
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      carType: 'sedan',
      action: 'update',
      version: 2,
      before: BASE_RATES.sedan,
      after: winnerValues,
      changedBy: admins[winner % admins.length]!.id,
      requestId: responses[winner]!.headers['x-request-id'],
    });
    const audit = await auditRowsOf(t.db, 'karnataka', ['sedan']);
    expect(audit).toHaveLength(1);

    // A save based on the new version wins in turn.
    const next = await putRates(t, admins[0]!, 'karnataka', {
      sedan: rateSet('sedan', { basePrice: 5, version: 2 }),
    });
    expect(next.statusCode, next.body).toBe(200);
    expect(await storedRates(t.db, 'karnataka')).toEqual({
      sedan: { ...rateSet('sedan', { basePrice: 5 }), version: 3 },
    });
    expect(await historyRowsOf(t.db, 'karnataka')).toHaveLength(2);
  });

  it('lets one admin win each round when rounds of saves follow each other', async () => {
    await resetState(t.db, 'maharashtra', ['auto']);
    for (let version = 1; version <= 3; version++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          putRates(t, admins[i % admins.length]!, 'maharashtra', {
            auto: rateSet('auto', { extra: version * 100 + i, version }),
          }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(9);
    }
    const stored = await storedRates(t.db, 'maharashtra');
    expect(stored.auto?.version).toBe(4);
    const history = await historyRowsOf(t.db, 'maharashtra');
    expect(history.map((row) => row.version)).toEqual([2, 3, 4]);
    // Each change starts from the values the previous one stored: no change was lost in between.
    for (let i = 1; i < history.length; i++) expect(history[i]!.before).toEqual(history[i - 1]!.after);
    expect(history.at(-1)!.after).toMatchObject({ extra: stored.auto!.extra });
  });

  it('lets exactly one of many admins add the same car type', async () => {
    await resetState(t.db, 'jharkhand', []);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        putRates(t, admins[i % admins.length]!, 'jharkhand', {
          mini: rateSet('mini', { basePrice: 40 + i }),
        }),
      ),
    );
    const winners = responses.flatMap((response, i) => (response.statusCode === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(19);
    expect(await storedRates(t.db, 'jharkhand')).toEqual({
      mini: { ...rateSet('mini', { basePrice: 40 + winners[0]! }), version: 1 },
    });
    expect(await historyRowsOf(t.db, 'jharkhand')).toHaveLength(1);
  });
});
