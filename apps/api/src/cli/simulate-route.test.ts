import { describe, expect, it } from 'vitest';
import { Random } from '../seed/random';
import { distanceMetres, drive, gpsReading, planLoop, startVehicle } from './simulate-route';

const mumbai = { lat: 19.076, long: 72.8777 };
const seeded = (seed: number) => {
  const rng = new Random(seed);
  return () => rng.next();
};

describe('the simulator route', () => {
  it('plans loops that start at the driver and stay within about 5 km of it', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const loop = planLoop(mumbai, seeded(seed));
      expect(loop[0]).toEqual(mumbai);
      expect(loop.length).toBeGreaterThanOrEqual(6);
      expect(loop.length).toBeLessThanOrEqual(9);
      for (const point of loop) expect(distanceMetres(mumbai, point)).toBeLessThanOrEqual(5000);
    }
  });

  it('drives at 30 to 40 km/h, give or take a tenth, around the loop for ever', () => {
    const random = seeded(7);
    const vehicle = startVehicle(mumbai, random);
    let before = vehicle.position;
    for (let tick = 0; tick < 3000; tick++) {
      const kmh = drive(vehicle, 2, random);
      expect(kmh).toBeGreaterThanOrEqual(27);
      expect(kmh).toBeLessThanOrEqual(44);
      const moved = distanceMetres(before, vehicle.position);
      // A straight line is never longer than the road driven (corners make it shorter).
      expect(moved).toBeLessThanOrEqual((kmh * 1000 * 2) / 3600 + 0.01);
      expect(distanceMetres(mumbai, vehicle.position)).toBeLessThanOrEqual(5000);
      before = vehicle.position;
    }
  });

  it('reports GPS readings a few metres off, with six decimals', () => {
    const random = seeded(3);
    for (let i = 0; i < 100; i++) {
      const reading = gpsReading(mumbai, random);
      expect(distanceMetres(mumbai, reading)).toBeLessThanOrEqual(8);
      expect(String(reading.lat).split('.')[1]?.length ?? 0).toBeLessThanOrEqual(6);
    }
  });
});
