-- What the driver search reads, apart from the drivers and in name order (decision 042). A common
-- name ("sharma", 2,583 of 100,000 drivers) had PostgreSQL recheck each match on its page of
-- drivers: 2,083 pages of rows ten times wider than the search needs, scattered in the order the
-- drivers came (5.4 ms). Here the same matches sit on 108 pages, since drivers named alike are
-- neighbours.
CREATE TABLE "driver_search" (
	"id" uuid PRIMARY KEY NOT NULL,
	"franchise_id" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"name" text NOT NULL,
	"search_text" text NOT NULL
);
--> statement-breakpoint
-- Kept row by row, and only when a searched or scoping column changes: a driver's position, written
-- thousands of times a second, never fires them (UPDATE OF). A row changed here moves to the end of
-- the table, out of order, until keepDriverSearchInOrder orders it again.
CREATE FUNCTION "driver_search_on_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO driver_search (id, franchise_id, deleted_at, created_at, name, search_text)
  VALUES (NEW.id, NEW.franchise_id, NEW.deleted_at, NEW.created_at, NEW.name, NEW.search_text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_search_on_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE driver_search SET franchise_id = NEW.franchise_id, deleted_at = NEW.deleted_at,
    created_at = NEW.created_at, name = NEW.name, search_text = NEW.search_text
  WHERE id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_search_on_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM driver_search WHERE id = OLD.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_search_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE driver_search;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "driver_search_insert" AFTER INSERT ON "drivers"
  FOR EACH ROW EXECUTE FUNCTION driver_search_on_insert();
--> statement-breakpoint
CREATE TRIGGER "driver_search_update"
  AFTER UPDATE OF name, email, phone_number, vehicle_number, franchise_id, deleted_at, created_at ON "drivers"
  FOR EACH ROW
  WHEN ((OLD.search_text, OLD.name, OLD.franchise_id, OLD.deleted_at, OLD.created_at)
    IS DISTINCT FROM (NEW.search_text, NEW.name, NEW.franchise_id, NEW.deleted_at, NEW.created_at))
  EXECUTE FUNCTION driver_search_on_update();
--> statement-breakpoint
CREATE TRIGGER "driver_search_delete" AFTER DELETE ON "drivers"
  FOR EACH ROW EXECUTE FUNCTION driver_search_on_delete();
--> statement-breakpoint
CREATE TRIGGER "driver_search_truncate" AFTER TRUNCATE ON "drivers"
  FOR EACH STATEMENT EXECUTE FUNCTION driver_search_on_truncate();
--> statement-breakpoint
-- Every driver, written in name order: at the migration, and after a bulk load that switched the
-- triggers off (seed/bulk-insert.ts). The trigram index is built after the rows, not row by row.
CREATE FUNCTION "driver_search_rebuild"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DROP INDEX IF EXISTS driver_search_text_idx;
  TRUNCATE driver_search;
  INSERT INTO driver_search (id, franchise_id, deleted_at, created_at, name, search_text)
  SELECT id, franchise_id, deleted_at, created_at, name, search_text FROM drivers ORDER BY name, id;
  CREATE INDEX driver_search_text_idx ON driver_search USING gin (search_text gin_trgm_ops);
END $$;
--> statement-breakpoint
CREATE INDEX "driver_search_name_idx" ON "driver_search" USING btree ("name","id");
--> statement-breakpoint
SELECT driver_search_rebuild();
--> statement-breakpoint
-- As drivers.search_text had (migration 0020): every value is distinct, and a sample guessed a
-- common surname's share anywhere from 0.01% to 7%; without statistics PostgreSQL takes the index.
ALTER TABLE "driver_search" ALTER COLUMN "search_text" SET STATISTICS 0;
--> statement-breakpoint
ANALYZE "driver_search";
--> statement-breakpoint
-- The search no longer reads drivers' own trigram index; a first sync of the Firebase link may have
-- left it to be built after (decision 038).
DELETE FROM "deferred_indexes" WHERE "name" = 'drivers_search_idx';
--> statement-breakpoint
DROP INDEX IF EXISTS "drivers_search_idx";
