CREATE TABLE "trip_daily_stats" (
	"day" date NOT NULL,
	"franchise_id" uuid,
	"state" text,
	"car_type" text,
	"status" "trip_status" NOT NULL,
	"cancel_reason" text DEFAULT '' NOT NULL,
	"trips" integer NOT NULL,
	"fare_total" numeric NOT NULL,
	"fare_trips" integer NOT NULL,
	"distance_total" numeric NOT NULL,
	"distance_trips" integer NOT NULL,
	CONSTRAINT "trip_daily_stats_key" UNIQUE NULLS NOT DISTINCT("day","franchise_id","state","car_type","status","cancel_reason")
);
--> statement-breakpoint
CREATE TABLE "trip_hourly_stats" (
	"day" date NOT NULL,
	"hour" smallint NOT NULL,
	"franchise_id" uuid,
	"trips" integer NOT NULL,
	CONSTRAINT "trip_hourly_stats_key" UNIQUE NULLS NOT DISTINCT("day","hour","franchise_id")
);
--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "documents_awaiting_review" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The dashboard's daily figures are kept by the database itself, whoever writes the trips (the
-- console, the apps, an import): a statement-level trigger adds what a statement inserted and takes
-- away what it deleted or replaced, grouped, so a bulk insert of thousands of trips costs one
-- grouped upsert. A trip is counted under its driver's franchise and state as they are now, the
-- scope the trip list applies: when a driver moves, its trips move with it. Days and hours are
-- India's, spelled as apps/api/src/lib/indian-time.ts spells them for the trip list.
CREATE FUNCTION "trip_stats_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The transition tables are visible in this function only (not in one it calls): the changes are
  -- read here, +1 for each row a statement wrote and -1 for each row it replaced or deleted.
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, t.* from new_trips t'
    WHEN 'DELETE' THEN 'select -1 as sign, t.* from old_trips t'
    ELSE 'select 1 as sign, t.* from new_trips t union all select -1, t.* from old_trips t'
  END;
BEGIN
  EXECUTE format($sql$
    insert into trip_daily_stats as s (day, franchise_id, state, car_type, status, cancel_reason,
      trips, fare_total, fare_trips, distance_total, distance_trips)
    select (c.created_at at time zone 'Asia/Kolkata')::date, d.franchise_id, d.state, c.car_type, c.status,
      case when c.status = 'cancelled' then left(coalesce(c.cancel_reason, ''), 200) else '' end,
      sum(c.sign), coalesce(sum(c.sign * c.price::numeric), 0), sum(c.sign * (c.price is not null)::int),
      coalesce(sum(c.sign * c.distance_km::numeric), 0), sum(c.sign * (c.distance_km is not null)::int)
    from (%s) c left join drivers d on d.id = c.driver_id
    group by 1, 2, 3, 4, 5, 6
    having sum(c.sign) <> 0 or coalesce(sum(c.sign * c.price::numeric), 0) <> 0
      or sum(c.sign * (c.price is not null)::int) <> 0
      or coalesce(sum(c.sign * c.distance_km::numeric), 0) <> 0
      or sum(c.sign * (c.distance_km is not null)::int) <> 0
    -- One order for every writer: two transactions never wait for each other's rows in a cycle.
    order by 1, 2, 3, 4, 5, 6
    on conflict (day, franchise_id, state, car_type, status, cancel_reason) do update set
      trips = s.trips + excluded.trips,
      fare_total = s.fare_total + excluded.fare_total,
      fare_trips = s.fare_trips + excluded.fare_trips,
      distance_total = s.distance_total + excluded.distance_total,
      distance_trips = s.distance_trips + excluded.distance_trips
  $sql$, changes);
  EXECUTE format($sql$
    insert into trip_hourly_stats as s (day, hour, franchise_id, trips)
    select (c.created_at at time zone 'Asia/Kolkata')::date,
      extract(hour from c.created_at at time zone 'Asia/Kolkata')::int, d.franchise_id, sum(c.sign)
    from (%s) c left join drivers d on d.id = c.driver_id
    group by 1, 2, 3
    having sum(c.sign) <> 0
    order by 1, 2, 3
    on conflict (day, hour, franchise_id) do update set trips = s.trips + excluded.trips
  $sql$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "trip_stats_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE trip_daily_stats, trip_hourly_stats;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A driver's franchise or state changes: its trips leave the old figures and join the new ones.
CREATE FUNCTION "trip_stats_on_driver_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into trip_daily_stats as s (day, franchise_id, state, car_type, status, cancel_reason,
    trips, fare_total, fare_trips, distance_total, distance_trips)
  select (t.created_at at time zone 'Asia/Kolkata')::date, m.franchise_id, m.state, t.car_type, t.status,
    case when t.status = 'cancelled' then left(coalesce(t.cancel_reason, ''), 200) else '' end,
    sum(m.sign), coalesce(sum(m.sign * t.price::numeric), 0), sum(m.sign * (t.price is not null)::int),
    coalesce(sum(m.sign * t.distance_km::numeric), 0), sum(m.sign * (t.distance_km is not null)::int)
  from trips t
  cross join (values (-1, OLD.franchise_id, OLD.state), (1, NEW.franchise_id, NEW.state)) as m(sign, franchise_id, state)
  where t.driver_id = NEW.id
  group by 1, 2, 3, 4, 5, 6
  having sum(m.sign) <> 0
  order by 1, 2, 3, 4, 5, 6
  on conflict (day, franchise_id, state, car_type, status, cancel_reason) do update set
    trips = s.trips + excluded.trips,
    fare_total = s.fare_total + excluded.fare_total,
    fare_trips = s.fare_trips + excluded.fare_trips,
    distance_total = s.distance_total + excluded.distance_total,
    distance_trips = s.distance_trips + excluded.distance_trips;
  insert into trip_hourly_stats as s (day, hour, franchise_id, trips)
  select (t.created_at at time zone 'Asia/Kolkata')::date,
    extract(hour from t.created_at at time zone 'Asia/Kolkata')::int, m.franchise_id, sum(m.sign)
  from trips t
  cross join (values (-1, OLD.franchise_id), (1, NEW.franchise_id)) as m(sign, franchise_id)
  where t.driver_id = NEW.id
  group by 1, 2, 3
  having sum(m.sign) <> 0
  order by 1, 2, 3
  on conflict (day, hour, franchise_id) do update set trips = s.trips + excluded.trips;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "trip_stats_insert" AFTER INSERT ON "trips" REFERENCING NEW TABLE AS new_trips
  FOR EACH STATEMENT EXECUTE FUNCTION trip_stats_on_change();
--> statement-breakpoint
CREATE TRIGGER "trip_stats_update" AFTER UPDATE ON "trips" REFERENCING OLD TABLE AS old_trips NEW TABLE AS new_trips
  FOR EACH STATEMENT EXECUTE FUNCTION trip_stats_on_change();
--> statement-breakpoint
CREATE TRIGGER "trip_stats_delete" AFTER DELETE ON "trips" REFERENCING OLD TABLE AS old_trips
  FOR EACH STATEMENT EXECUTE FUNCTION trip_stats_on_change();
--> statement-breakpoint
CREATE TRIGGER "trip_stats_truncate" AFTER TRUNCATE ON "trips"
  FOR EACH STATEMENT EXECUTE FUNCTION trip_stats_on_truncate();
--> statement-breakpoint
CREATE TRIGGER "trip_stats_driver_move" AFTER UPDATE OF "franchise_id", "state" ON "drivers"
  FOR EACH ROW WHEN (OLD.franchise_id IS DISTINCT FROM NEW.franchise_id OR OLD.state IS DISTINCT FROM NEW.state)
  EXECUTE FUNCTION trip_stats_on_driver_move();
--> statement-breakpoint
-- The figures of the trips already stored.
INSERT INTO "trip_daily_stats" (day, franchise_id, state, car_type, status, cancel_reason,
  trips, fare_total, fare_trips, distance_total, distance_trips)
SELECT (t.created_at at time zone 'Asia/Kolkata')::date, d.franchise_id, d.state, t.car_type, t.status,
  case when t.status = 'cancelled' then left(coalesce(t.cancel_reason, ''), 200) else '' end,
  count(*), coalesce(sum(t.price::numeric), 0), count(t.price), coalesce(sum(t.distance_km::numeric), 0), count(t.distance_km)
FROM trips t LEFT JOIN drivers d ON d.id = t.driver_id
GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO "trip_hourly_stats" (day, hour, franchise_id, trips)
SELECT (t.created_at at time zone 'Asia/Kolkata')::date, extract(hour from t.created_at at time zone 'Asia/Kolkata')::int,
  d.franchise_id, count(*)
FROM trips t LEFT JOIN drivers d ON d.id = t.driver_id
GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Each driver's count of documents awaiting review, kept the same way from driver_documents.
CREATE FUNCTION "documents_awaiting_review_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, d.* from new_documents d'
    WHEN 'DELETE' THEN 'select -1 as sign, d.* from old_documents d'
    ELSE 'select 1 as sign, d.* from new_documents d union all select -1, d.* from old_documents d'
  END;
BEGIN
  EXECUTE format($sql$
    update drivers set documents_awaiting_review = drivers.documents_awaiting_review + c.delta
    from (select driver_id, sum(sign) as delta from (%s) d where status = 'submitted'
          group by driver_id having sum(sign) <> 0) c
    where drivers.id = c.driver_id
  $sql$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "documents_awaiting_review_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE drivers SET documents_awaiting_review = 0 WHERE documents_awaiting_review <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "documents_awaiting_review_insert" AFTER INSERT ON "driver_documents" REFERENCING NEW TABLE AS new_documents
  FOR EACH STATEMENT EXECUTE FUNCTION documents_awaiting_review_on_change();
--> statement-breakpoint
CREATE TRIGGER "documents_awaiting_review_update" AFTER UPDATE ON "driver_documents" REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents
  FOR EACH STATEMENT EXECUTE FUNCTION documents_awaiting_review_on_change();
--> statement-breakpoint
CREATE TRIGGER "documents_awaiting_review_delete" AFTER DELETE ON "driver_documents" REFERENCING OLD TABLE AS old_documents
  FOR EACH STATEMENT EXECUTE FUNCTION documents_awaiting_review_on_change();
--> statement-breakpoint
CREATE TRIGGER "documents_awaiting_review_truncate" AFTER TRUNCATE ON "driver_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION documents_awaiting_review_on_truncate();
--> statement-breakpoint
UPDATE "drivers" SET "documents_awaiting_review" = c.n
FROM (SELECT driver_id, count(*) AS n FROM driver_documents WHERE status = 'submitted' GROUP BY driver_id) c
WHERE drivers.id = c.driver_id;
