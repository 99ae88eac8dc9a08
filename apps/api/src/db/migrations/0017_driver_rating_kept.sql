ALTER TABLE "drivers" ADD COLUMN "rating_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each driver's ratings (those that carry a rating, 1 to 5) as a sum and a count, kept by the
-- database whoever writes them (the customer app, an import), as the documents awaiting review are
-- (migration 0010): a statement adds what it inserted and takes away what it deleted or replaced.
CREATE FUNCTION "driver_rating_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, r.driver_id, r.rating from new_ratings r'
    WHEN 'DELETE' THEN 'select -1 as sign, r.driver_id, r.rating from old_ratings r'
    ELSE 'select 1 as sign, r.driver_id, r.rating from new_ratings r
          union all select -1, r.driver_id, r.rating from old_ratings r'
  END;
BEGIN
  EXECUTE format($sql$
    update drivers set rating_total = drivers.rating_total + c.total, rating_count = drivers.rating_count + c.n
    from (select driver_id, sum(sign * rating) as total, sum(sign) as n from (%s) r
          where rating between 1 and 5 group by driver_id having sum(sign) <> 0 or sum(sign * rating) <> 0) c
    where drivers.id = c.driver_id
  $sql$, changes);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_rating_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE drivers SET rating_total = 0, rating_count = 0 WHERE rating_count <> 0 OR rating_total <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The sums recomputed from the rows: a bulk load turns the triggers off and calls this once.
CREATE FUNCTION "driver_rating_rebuild"() RETURNS void LANGUAGE sql AS $$
  UPDATE drivers SET rating_total = c.total, rating_count = c.n
  FROM (
    SELECT d.id, coalesce(sum(r.rating), 0)::int AS total, count(r.rating)::int AS n
    FROM drivers d LEFT JOIN driver_ratings r ON r.driver_id = d.id AND r.rating BETWEEN 1 AND 5
    GROUP BY d.id
  ) c
  WHERE drivers.id = c.id AND (drivers.rating_total <> c.total OR drivers.rating_count <> c.n);
$$;
--> statement-breakpoint
CREATE TRIGGER "driver_rating_insert" AFTER INSERT ON "driver_ratings" REFERENCING NEW TABLE AS new_ratings
  FOR EACH STATEMENT EXECUTE FUNCTION driver_rating_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_rating_update" AFTER UPDATE ON "driver_ratings" REFERENCING OLD TABLE AS old_ratings NEW TABLE AS new_ratings
  FOR EACH STATEMENT EXECUTE FUNCTION driver_rating_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_rating_delete" AFTER DELETE ON "driver_ratings" REFERENCING OLD TABLE AS old_ratings
  FOR EACH STATEMENT EXECUTE FUNCTION driver_rating_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_rating_truncate" AFTER TRUNCATE ON "driver_ratings"
  FOR EACH STATEMENT EXECUTE FUNCTION driver_rating_on_truncate();
--> statement-breakpoint
-- The sums of the ratings already stored.
SELECT driver_rating_rebuild();
