/**
 * Plausible driving for the simulator: a loop of waypoints through the driver's position, driven
 * at city speed. Flat-earth arithmetic is good enough over a few kilometres.
 */

export type Point = { lat: number; long: number };

const METRES_PER_DEGREE = 111_320;

/** A point moved by so many metres north and east. */
export function offset(point: Point, northMetres: number, eastMetres: number): Point {
  const lat = point.lat + northMetres / METRES_PER_DEGREE;
  const long = point.long + eastMetres / (METRES_PER_DEGREE * Math.cos((point.lat * Math.PI) / 180));
  return { lat, long: ((((long + 180) % 360) + 360) % 360) - 180 };
}

/** Distance in metres between two nearby points. */
export function distanceMetres(a: Point, b: Point): number {
  const north = (b.lat - a.lat) * METRES_PER_DEGREE;
  const east = (b.long - a.long) * METRES_PER_DEGREE * Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return Math.hypot(north, east);
}

/**
 * A closed loop that starts and ends at `start`: a ring of 6 to 9 waypoints around a centre 1 to
 * 2 km away, each at a slightly different radius, like a route through a few city blocks. No
 * waypoint is more than about 5 km from the start.
 */
export function planLoop(start: Point, random: () => number = Math.random): Point[] {
  const radius = 1000 + random() * 1000;
  const bearing = random() * 2 * Math.PI;
  const centre = offset(start, radius * Math.cos(bearing), radius * Math.sin(bearing));
  const count = 6 + Math.floor(random() * 4);
  const direction = random() < 0.5 ? 1 : -1;
  // The angle of the start as seen from the centre: the ring begins there.
  const startAngle = bearing + Math.PI;
  const loop: Point[] = [start];
  for (let k = 1; k < count; k++) {
    const angle = startAngle + (direction * k * 2 * Math.PI) / count;
    const r = radius * (0.75 + random() * 0.5);
    loop.push(offset(centre, r * Math.cos(angle), r * Math.sin(angle)));
  }
  return loop;
}

/** A vehicle on its loop: where it is, which waypoint it heads for, and its usual speed. */
export type Vehicle = { loop: Point[]; position: Point; next: number; kmh: number };

export function startVehicle(start: Point, random: () => number = Math.random): Vehicle {
  return { loop: planLoop(start, random), position: start, next: 1, kmh: 30 + random() * 10 };
}

/** Drives for some seconds at about the vehicle's speed (give or take a tenth), around its loop. */
export function drive(vehicle: Vehicle, seconds: number, random: () => number = Math.random): number {
  const kmh = vehicle.kmh * (0.9 + random() * 0.2);
  let left = (kmh * 1000 * seconds) / 3600;
  const lap = vehicle.loop.reduce(
    (sum, point, i, loop) => sum + distanceMetres(point, loop[(i + 1) % loop.length]!),
    0,
  );
  if (lap < 1) return kmh; // nowhere to go
  while (left > 0) {
    const target = vehicle.loop[vehicle.next]!;
    const gap = distanceMetres(vehicle.position, target);
    if (gap <= left) {
      vehicle.position = target;
      vehicle.next = (vehicle.next + 1) % vehicle.loop.length;
      left -= gap;
    } else {
      const f = left / gap;
      vehicle.position = {
        lat: vehicle.position.lat + (target.lat - vehicle.position.lat) * f,
        long: vehicle.position.long + (target.long - vehicle.position.long) * f,
      };
      left = 0;
    }
  }
  return kmh;
}

/** What a phone's GPS reports: the position give or take a few metres, rounded as phones do. */
export function gpsReading(position: Point, random: () => number = Math.random, metres = 5): Point {
  const noisy = offset(position, (random() * 2 - 1) * metres, (random() * 2 - 1) * metres);
  return { lat: +noisy.lat.toFixed(6), long: +noisy.long.toFixed(6) };
}
