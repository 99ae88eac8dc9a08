-- Every title a trip has had (the customer's name, as written), so that a name search finds its
-- words among the titles first and then each matching title's newest trips from an index alone
-- (decision 040): "bhavna dsouza" had PostgreSQL walk the trigram index of a million trips and read
-- the 571 trips it matched to keep the newest 51 (4.4-7.9 ms); among 2,000 titles, then 51 index
-- entries, it costs about a fifth of that.
-- `search` is the title lowered once, as the search compares it: a few thousand titles are read
-- whole rather than through the trigram index, and lower() on each cost that read half its time.
CREATE TABLE "trip_titles" (
	"title" text PRIMARY KEY NOT NULL,
	"search" text GENERATED ALWAYS AS (lower("title")) STORED NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trip_titles_search_idx" ON "trip_titles" USING gin ("search" gin_trgm_ops);
--> statement-breakpoint
-- Kept per statement, from the rows it wrote: a title already known costs one probe of the key.
-- Titles are never removed with their trips; a title without trips only matches nothing.
CREATE FUNCTION "trip_titles_on_write"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO trip_titles (title)
  SELECT DISTINCT n.title FROM new_trips n
  WHERE NOT EXISTS (SELECT 1 FROM trip_titles t WHERE t.title = n.title)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "trip_titles_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE trip_titles;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "trip_titles_insert" AFTER INSERT ON "trips" REFERENCING NEW TABLE AS new_trips
  FOR EACH STATEMENT EXECUTE FUNCTION trip_titles_on_write();
--> statement-breakpoint
CREATE TRIGGER "trip_titles_update" AFTER UPDATE ON "trips" REFERENCING NEW TABLE AS new_trips
  FOR EACH STATEMENT EXECUTE FUNCTION trip_titles_on_write();
--> statement-breakpoint
CREATE TRIGGER "trip_titles_truncate" AFTER TRUNCATE ON "trips"
  FOR EACH STATEMENT EXECUTE FUNCTION trip_titles_on_truncate();
--> statement-breakpoint
-- The titles of the trips stored: at the migration, and after a bulk load that switched the
-- triggers off (seed/bulk-insert.ts).
CREATE FUNCTION "trip_titles_rebuild"() RETURNS void LANGUAGE sql AS $$
  INSERT INTO trip_titles (title) SELECT DISTINCT title FROM trips ON CONFLICT DO NOTHING;
$$;
--> statement-breakpoint
SELECT trip_titles_rebuild();
--> statement-breakpoint
ANALYZE "trip_titles";
--> statement-breakpoint
-- A title's newest trips, read from the index alone.
CREATE INDEX "trips_title_created_idx" ON "trips" USING btree ("title","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);
--> statement-breakpoint
-- The newest trips with their titles: a search matching many titles ("sharma") tests each title in
-- the index, without reading the 1,900 trips it passes over to fill a page (18 pages read, not 101).
CREATE INDEX "trips_created_title_idx" ON "trips" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("title");
--> statement-breakpoint
-- IF EXISTS: a first sync of the Firebase link may have left it to be built after
-- (deferred_indexes), which then finds it built.
DROP INDEX IF EXISTS "trips_created_idx";
--> statement-breakpoint
ALTER INDEX "trips_created_title_idx" RENAME TO "trips_created_idx";
