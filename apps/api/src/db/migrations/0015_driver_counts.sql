CREATE TABLE "driver_counts" (
	"franchise_id" uuid,
	"deleted" boolean NOT NULL,
	"drivers" integer NOT NULL,
	CONSTRAINT "driver_counts_key" UNIQUE NULLS NOT DISTINCT("franchise_id","deleted")
);
--> statement-breakpoint
-- Each franchise's count of drivers, active and deleted, kept by the database itself whoever writes
-- the drivers (the console, the apps, an import), so that an unsearched driver list counts its rows
-- exactly by adding a few numbers. Inserts and deletes are counted per statement (a bulk insert is
-- one grouped upsert); a driver that changes franchise, or is deleted or restored, moves one count
-- to another. Position reports do not touch these columns and fire nothing.
CREATE FUNCTION "driver_counts_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, t.franchise_id, t.deleted_at from new_drivers t'
    ELSE 'select -1 as sign, t.franchise_id, t.deleted_at from old_drivers t'
  END;
BEGIN
  EXECUTE format($sql$
    insert into driver_counts as s (franchise_id, deleted, drivers)
    select c.franchise_id, c.deleted_at is not null, sum(c.sign)
    from (%s) c
    group by 1, 2
    -- One order for every writer: two transactions never wait for each other's rows in a cycle.
    order by 1, 2
    on conflict (franchise_id, deleted) do update set drivers = s.drivers + excluded.drivers
  $sql$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_counts_on_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  insert into driver_counts as s (franchise_id, deleted, drivers)
  select m.franchise_id, m.deleted, sum(m.sign)
  from (values (OLD.franchise_id, OLD.deleted_at is not null, -1),
               (NEW.franchise_id, NEW.deleted_at is not null, 1)) as m(franchise_id, deleted, sign)
  group by 1, 2
  having sum(m.sign) <> 0
  order by 1, 2
  on conflict (franchise_id, deleted) do update set drivers = s.drivers + excluded.drivers;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_counts_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE driver_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The counts recomputed whole from the rows: a bulk load turns the triggers off and calls this once.
CREATE FUNCTION "driver_counts_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM driver_counts;
  INSERT INTO driver_counts (franchise_id, deleted, drivers)
  SELECT franchise_id, deleted_at IS NOT NULL, count(*) FROM drivers GROUP BY 1, 2;
$$;
--> statement-breakpoint
CREATE TRIGGER "driver_counts_insert" AFTER INSERT ON "drivers" REFERENCING NEW TABLE AS new_drivers
  FOR EACH STATEMENT EXECUTE FUNCTION driver_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_counts_delete" AFTER DELETE ON "drivers" REFERENCING OLD TABLE AS old_drivers
  FOR EACH STATEMENT EXECUTE FUNCTION driver_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_counts_truncate" AFTER TRUNCATE ON "drivers"
  FOR EACH STATEMENT EXECUTE FUNCTION driver_counts_on_truncate();
--> statement-breakpoint
CREATE TRIGGER "driver_counts_move" AFTER UPDATE OF "franchise_id", "deleted_at" ON "drivers"
  FOR EACH ROW WHEN (OLD.franchise_id IS DISTINCT FROM NEW.franchise_id
    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION driver_counts_on_move();
--> statement-breakpoint
-- The counts of the drivers already stored.
SELECT driver_counts_rebuild();
