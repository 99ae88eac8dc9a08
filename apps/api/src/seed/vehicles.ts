import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * What staff add to the demo vehicles that the driver app does not report, drawn from each
 * registration number so that the demo stays the same from one start to the next: the make (the
 * first word of the model), a model year from 2017 (some vehicles are past the guidelines' 8 years)
 * and the first registration in it, mostly electric (an electric taxi service, with a few CNG and
 * petrol cars of the drivers' own), the owner, and the seats of the car type.
 */
export async function seedDemoVehicles(db: Db): Promise<void> {
  await db.execute(sql`
    with drawn as (
      select id, abs(hashtext(registration_number)) as h from vehicles
    )
    update vehicles v set
      make = coalesce(v.make, nullif(split_part(v.model, ' ', 1), '')),
      year = coalesce(v.year, 2017 + drawn.h % 9),
      first_registered_on = make_date(coalesce(v.year, 2017 + drawn.h % 9), 1 + (drawn.h / 9) % 12, 1 + (drawn.h / 108) % 28),
      fuel = case when (drawn.h / 3024) % 20 < 17 then 'electric' when (drawn.h / 3024) % 20 < 19 then 'cng' else 'petrol' end,
      owner = case when (drawn.h / 60480) % 10 < 7 then 'driver' else 'company' end,
      seats = case v.car_type when 'suv' then 6 when 'auto' then 3 else 4 end
    from drawn where drawn.id = v.id`);
}
