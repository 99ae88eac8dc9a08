import { describe, expect, it } from 'vitest';
import { matchGroups, searchHints } from './search-matches';

const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

describe('matchGroups', () => {
  it('shows drivers first, then trips and the rest, each line as staff read it, leaving out empty kinds', () => {
    const groups = matchGroups({
      trips: [
        {
          id: id(1),
          title: 'Ravi Kumar',
          createdAt: '2026-11-24T03:35:00.000Z',
          pickup: 'Andheri, Mumbai',
          destination: null,
        },
      ],
      drivers: [
        { id: id(2), name: 'Asha Rao', phoneNumber: '+919812345678', vehicleNumber: 'MH 01 AB 1234' },
      ],
      customers: [],
      cityDealers: [{ id: id(3), name: '', email: 'dealer@example.in', state: 'tamil nadu' }],
      franchises: [{ id: id(4), name: 'Pune EV Cabs', email: 'pune@example.in', state: null }],
    });

    expect(groups.map((group) => group.label)).toEqual(['Drivers', 'Trips', 'City dealers', 'Franchises']);
    const [drivers, trips, dealers, franchises] = groups.map((group) => group.options[0]!);
    expect(drivers).toMatchObject({
      title: 'Asha Rao',
      detail: '+919812345678 · MH 01 AB 1234',
      to: `/drivers/${id(2)}`,
    });
    // In India's time, whatever the machine's zone; a place not known is a dash.
    expect(trips).toMatchObject({
      title: 'Ravi Kumar',
      detail: '24/11/2026, 9:05 am · Andheri, Mumbai to -',
      to: `/trips/${id(1)}`,
    });
    // A dealer without a name goes by its email; its list opens searched for it, with it open.
    expect(dealers).toMatchObject({ title: 'dealer@example.in', detail: 'dealer@example.in · Tamil Nadu' });
    expect(new URL(dealers!.to, 'http://x').pathname).toBe('/cityDealer');
    expect(Object.fromEntries(new URL(dealers!.to, 'http://x').searchParams)).toEqual({
      q: 'dealer@example.in',
      dealer: id(3),
    });
    expect(franchises!.to).toBe(`/displayFranchise?q=Pune+EV+Cabs&franchise=${id(4)}`);
  });

  it("says 'No info' for a driver with neither phone nor vehicle, and opens a customer in the list", () => {
    const [drivers, customers] = matchGroups({
      drivers: [{ id: id(5), name: 'No Phone', phoneNumber: null, vehicleNumber: null }],
      customers: [{ id: id(6), name: 'Meera Iyer', phoneNumber: '+919800000000', email: null }],
    });
    expect(drivers!.options[0]!.detail).toBe('No info');
    expect(customers!.options[0]).toMatchObject({
      detail: '+919800000000',
      to: `/customers?q=Meera+Iyer&customer=${id(6)}`,
    });
  });
});

describe('searchHints', () => {
  it('names only the kinds a role may list', () => {
    expect(searchHints('admin')).toHaveLength(5);
    expect(searchHints('city_dealer').map((hint) => hint.split(' ')[0])).toEqual([
      'drivers',
      'trips',
      'franchises',
    ]);
    expect(searchHints('franchise').map((hint) => hint.split(' ')[0])).toEqual(['drivers', 'trips']);
  });
});
