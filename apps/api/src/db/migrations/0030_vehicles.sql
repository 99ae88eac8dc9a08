CREATE TABLE "vehicle_assignments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"since" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone,
	"source" text NOT NULL,
	"by" uuid
);
--> statement-breakpoint
CREATE TABLE "vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"registration_number" text NOT NULL,
	"make" text,
	"model" text,
	"year" integer,
	"colour" text,
	"interior_colour" text,
	"car_type" text,
	"first_registered_on" date,
	"fuel" text,
	"seats" integer,
	"owner" text,
	"state" text,
	"franchise_id" uuid,
	"driver_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower("registration_number" || ' ' || coalesce("make", '') || ' ' || coalesce("model", ''))) STORED NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vehicle_assignments" ADD CONSTRAINT "vehicle_assignments_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_assignments" ADD CONSTRAINT "vehicle_assignments_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_assignments" ADD CONSTRAINT "vehicle_assignments_by_accounts_id_fk" FOREIGN KEY ("by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_franchise_id_accounts_id_fk" FOREIGN KEY ("franchise_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicles" ADD CONSTRAINT "vehicles_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vehicle_assignments_vehicle_idx" ON "vehicle_assignments" USING btree ("vehicle_id","since" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "vehicle_assignments_open_driver_idx" ON "vehicle_assignments" USING btree ("driver_id") WHERE "vehicle_assignments"."until" is null;--> statement-breakpoint
CREATE INDEX "vehicles_registration_idx" ON "vehicles" USING btree ("registration_number","id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_registration_unique" ON "vehicles" USING btree ("registration_number");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicles_driver_idx" ON "vehicles" USING btree ("driver_id") WHERE "vehicles"."driver_id" is not null;--> statement-breakpoint
CREATE INDEX "vehicles_franchise_registration_idx" ON "vehicles" USING btree ("franchise_id","registration_number","id");--> statement-breakpoint
CREATE INDEX "vehicles_created_idx" ON "vehicles" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "vehicles_search_idx" ON "vehicles" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
-- A registration number as stored: capitals and digits only (the code's normaliseRegistration).
CREATE FUNCTION "vehicle_registration"(number text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT upper(regexp_replace(coalesce(number, ''), '[^A-Za-z0-9]', '', 'g'))
$$;
--> statement-breakpoint
-- The driver app's car details follow the drivers' rows, whoever writes them (the Firebase link,
-- an import, the demo data): a number first seen becomes a vehicle; the details the app carries
-- (make, model, year, colours, car type) are kept on the vehicle of that number; and a driver whose
-- number changed (`moved`) now drives that vehicle: the assignments it and the driver had end, and
-- a new one (source 'app') begins. A staff assignment is left as it is until the app reports
-- another number. Set-based, for the batches of an import.
CREATE FUNCTION "vehicles_follow_drivers"(changed uuid[], moved uuid[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  pair_drivers uuid[];
  pair_vehicles uuid[];
BEGIN
  INSERT INTO vehicles AS v (registration_number, make, model, year, colour, interior_colour, car_type,
    state, franchise_id)
  SELECT DISTINCT ON (vehicle_registration(d.vehicle_number)) vehicle_registration(d.vehicle_number),
    d.car_brand, d.car_model,
    CASE WHEN d.car_year ~ '^\s*(19[5-9][0-9]|2[01][0-9][0-9])\s*$' THEN trim(d.car_year)::int END,
    d.car_color, d.car_interior_color, d.car_type, d.state, d.franchise_id
  FROM drivers d
  WHERE d.id = any(changed) AND vehicle_registration(d.vehicle_number) <> ''
  ORDER BY vehicle_registration(d.vehicle_number), d.id
  ON CONFLICT (registration_number) DO UPDATE SET make = excluded.make, model = excluded.model,
    year = coalesce(excluded.year, v.year), colour = excluded.colour,
    interior_colour = excluded.interior_colour, car_type = coalesce(excluded.car_type, v.car_type),
    updated_at = now()
  WHERE (v.make, v.model, v.year, v.colour, v.interior_colour, v.car_type) IS DISTINCT FROM
    (excluded.make, excluded.model, coalesce(excluded.year, v.year), excluded.colour,
     excluded.interior_colour, coalesce(excluded.car_type, v.car_type));

  SELECT array_agg(p.driver_id), array_agg(p.vehicle_id) INTO pair_drivers, pair_vehicles
  FROM (
    SELECT DISTINCT ON (v.id) d.id AS driver_id, v.id AS vehicle_id
    FROM drivers d JOIN vehicles v ON v.registration_number = vehicle_registration(d.vehicle_number)
    WHERE d.id = any(moved) AND v.driver_id IS DISTINCT FROM d.id
    ORDER BY v.id, d.id
  ) p;
  IF pair_drivers IS NULL THEN
    RETURN;
  END IF;
  UPDATE vehicle_assignments SET until = now()
  WHERE until IS NULL AND (vehicle_id = any(pair_vehicles) OR driver_id = any(pair_drivers));
  UPDATE vehicles SET driver_id = NULL, updated_at = now()
  WHERE driver_id = any(pair_drivers) OR (id = any(pair_vehicles) AND driver_id IS NOT NULL);
  UPDATE vehicles v SET driver_id = p.driver_id, franchise_id = d.franchise_id,
    state = coalesce(v.state, d.state), updated_at = now()
  FROM unnest(pair_drivers, pair_vehicles) AS p(driver_id, vehicle_id)
  JOIN drivers d ON d.id = p.driver_id
  WHERE v.id = p.vehicle_id;
  INSERT INTO vehicle_assignments (vehicle_id, driver_id, source)
  SELECT p.vehicle_id, p.driver_id, 'app' FROM unnest(pair_drivers, pair_vehicles) AS p(driver_id, vehicle_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION "vehicles_on_driver_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed uuid[];
BEGIN
  SELECT array_agg(n.id) INTO changed FROM new_drivers n WHERE vehicle_registration(n.vehicle_number) <> '';
  IF changed IS NOT NULL THEN
    PERFORM vehicles_follow_drivers(changed, changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A driver whose car details changed (rarely: a row trigger, which positions' updates never call);
-- a driver moved to another franchise takes the vehicle they drive along.
CREATE FUNCTION "vehicles_on_driver_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.vehicle_number, NEW.car_brand, NEW.car_model, NEW.car_year, NEW.car_color, NEW.car_interior_color,
      NEW.car_type) IS DISTINCT FROM (OLD.vehicle_number, OLD.car_brand, OLD.car_model, OLD.car_year,
      OLD.car_color, OLD.car_interior_color, OLD.car_type) THEN
    PERFORM vehicles_follow_drivers(ARRAY[NEW.id],
      CASE WHEN vehicle_registration(NEW.vehicle_number) <> vehicle_registration(OLD.vehicle_number)
        THEN ARRAY[NEW.id] ELSE '{}'::uuid[] END);
  END IF;
  IF NEW.franchise_id IS DISTINCT FROM OLD.franchise_id THEN
    UPDATE vehicles SET franchise_id = NEW.franchise_id, updated_at = now() WHERE driver_id = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Every driver's vehicle made anew from the drivers: a bulk load turns the triggers off and calls this once.
CREATE FUNCTION "vehicles_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  everyone uuid[] := (SELECT array_agg(id) FROM drivers WHERE vehicle_registration(vehicle_number) <> '');
BEGIN
  IF everyone IS NOT NULL THEN
    PERFORM vehicles_follow_drivers(everyone, everyone);
  END IF;
END $$;
--> statement-breakpoint
CREATE TRIGGER "vehicles_driver_insert" AFTER INSERT ON "drivers" REFERENCING NEW TABLE AS new_drivers
  FOR EACH STATEMENT EXECUTE FUNCTION vehicles_on_driver_insert();
--> statement-breakpoint
CREATE TRIGGER "vehicles_driver_update" AFTER UPDATE OF "vehicle_number", "car_brand", "car_model", "car_year",
  "car_color", "car_interior_color", "car_type", "franchise_id" ON "drivers"
  FOR EACH ROW WHEN ((NEW.vehicle_number, NEW.car_brand, NEW.car_model, NEW.car_year, NEW.car_color,
    NEW.car_interior_color, NEW.car_type, NEW.franchise_id) IS DISTINCT FROM (OLD.vehicle_number,
    OLD.car_brand, OLD.car_model, OLD.car_year, OLD.car_color, OLD.car_interior_color, OLD.car_type,
    OLD.franchise_id))
  EXECUTE FUNCTION vehicles_on_driver_update();
--> statement-breakpoint
-- The drivers already stored.
SELECT vehicles_rebuild();
