-- What the compliance views hold, counted per franchise (active and deleted drivers apart), so that
-- the summary the header and the dashboard ask for adds a few hundred numbers: it read every
-- document awaiting review and every check in force (2.2 s at 100,000 drivers). `review` rows (no
-- date) count the documents awaiting review; `expiry` rows count, per expiry date, the approved
-- documents and the checks in force (no result yet, or passed) that lapse on it. Kept by the
-- database whoever writes (the console, the Firebase link, an import), as the driver counts are.
CREATE TABLE "compliance_counts" (
	"franchise_id" uuid,
	"deleted" boolean NOT NULL,
	"kind" text NOT NULL,
	"expires_on" date,
	"items" integer NOT NULL,
	CONSTRAINT "compliance_counts_kind" CHECK ("kind" IN ('review', 'expiry') AND ("kind" = 'expiry') = ("expires_on" IS NOT NULL)),
	CONSTRAINT "compliance_counts_key" UNIQUE NULLS NOT DISTINCT("franchise_id","deleted","kind","expires_on")
);
--> statement-breakpoint
--> statement-breakpoint
-- Each driver's items, as the summary counts them: one row per document awaiting review, approved
-- document with an expiry date or check in force with one.
CREATE VIEW "compliance_items" AS
  SELECT driver_id, CASE WHEN status = 'submitted' THEN 'review' ELSE 'expiry' END AS kind,
    CASE WHEN status = 'submitted' THEN NULL ELSE expires_on END AS expires_on
  FROM driver_documents
  WHERE status = 'submitted' OR (status = 'approved' AND expires_on IS NOT NULL)
  UNION ALL
  SELECT driver_id, 'expiry', expires_on FROM driver_checks
  WHERE expires_on IS NOT NULL AND (result IS NULL OR result = 'passed');
--> statement-breakpoint
-- A statement's changes to documents or checks, counted under each driver's franchise as it is
-- now. The drivers are locked for share first, in one order: a driver moved to another franchise
-- by a transaction not yet committed is read as that one leaves it, so no count stays behind.
-- A driver already deleted in the same statement (a cascade) is not found: its items were taken
-- away before it went (compliance_counts_on_driver_delete).
CREATE FUNCTION "compliance_counts_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  items text := CASE TG_TABLE_NAME
    WHEN 'driver_documents' THEN
      'select sign, driver_id, case when status = ''submitted'' then ''review'' else ''expiry'' end as kind,
         case when status = ''submitted'' then null else expires_on end as expires_on
       from (%s) r where status = ''submitted'' or (status = ''approved'' and expires_on is not null)'
    ELSE
      'select sign, driver_id, ''expiry'' as kind, expires_on
       from (%s) r where expires_on is not null and (result is null or result = ''passed'')'
  END;
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select 1 as sign, n.* from new_rows n'
    WHEN 'DELETE' THEN 'select -1 as sign, o.* from old_rows o'
    ELSE 'select 1 as sign, n.* from new_rows n union all select -1, o.* from old_rows o'
  END;
BEGIN
  EXECUTE format($sql$
    with c as (%s),
    d as (select id, franchise_id, deleted_at from drivers
          where id in (select driver_id from c) order by id for share)
    insert into compliance_counts as s (franchise_id, deleted, kind, expires_on, items)
    select d.franchise_id, d.deleted_at is not null, c.kind, c.expires_on, sum(c.sign)
    from c join d on d.id = c.driver_id
    group by 1, 2, 3, 4
    having sum(c.sign) <> 0
    -- One order for every writer: two transactions never wait for each other's rows in a cycle.
    order by 1, 2, 3, 4
    on conflict (franchise_id, deleted, kind, expires_on) do update set items = s.items + excluded.items
  $sql$, format(items, changes));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A driver moved to another franchise, deleted or restored takes its items along.
CREATE FUNCTION "compliance_counts_on_driver_move"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO compliance_counts AS s (franchise_id, deleted, kind, expires_on, items)
  SELECT m.franchise_id, m.deleted, i.kind, i.expires_on, sum(m.sign)
  FROM compliance_items i
  CROSS JOIN (VALUES (OLD.franchise_id, OLD.deleted_at IS NOT NULL, -1),
                     (NEW.franchise_id, NEW.deleted_at IS NOT NULL, 1)) AS m(franchise_id, deleted, sign)
  WHERE i.driver_id = NEW.id
  GROUP BY 1, 2, 3, 4
  HAVING sum(m.sign) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (franchise_id, deleted, kind, expires_on) DO UPDATE SET items = s.items + excluded.items;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A driver removed for good: its items are taken away while they can still be read (its documents
-- and checks go with it, by cascade, after the row).
CREATE FUNCTION "compliance_counts_on_driver_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO compliance_counts AS s (franchise_id, deleted, kind, expires_on, items)
  SELECT OLD.franchise_id, OLD.deleted_at IS NOT NULL, i.kind, i.expires_on, -count(*)
  FROM compliance_items i WHERE i.driver_id = OLD.id
  GROUP BY 1, 2, 3, 4
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (franchise_id, deleted, kind, expires_on) DO UPDATE SET items = s.items + excluded.items;
  RETURN OLD;
END $$;
--> statement-breakpoint
-- The counts recomputed whole from the rows: a bulk load turns the triggers off and calls this once,
-- as does emptying documents or checks.
CREATE FUNCTION "compliance_counts_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM compliance_counts;
  INSERT INTO compliance_counts (franchise_id, deleted, kind, expires_on, items)
  SELECT d.franchise_id, d.deleted_at IS NOT NULL, i.kind, i.expires_on, count(*)
  FROM compliance_items i JOIN drivers d ON d.id = i.driver_id
  GROUP BY 1, 2, 3, 4;
$$;
--> statement-breakpoint
CREATE FUNCTION "compliance_counts_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM compliance_counts_rebuild();
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_documents_insert" AFTER INSERT ON "driver_documents" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_documents_update" AFTER UPDATE ON "driver_documents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_documents_delete" AFTER DELETE ON "driver_documents" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_documents_truncate" AFTER TRUNCATE ON "driver_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_truncate();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_checks_insert" AFTER INSERT ON "driver_checks" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_checks_update" AFTER UPDATE ON "driver_checks" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_checks_delete" AFTER DELETE ON "driver_checks" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_change();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_checks_truncate" AFTER TRUNCATE ON "driver_checks"
  FOR EACH STATEMENT EXECUTE FUNCTION compliance_counts_on_truncate();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_driver_move" AFTER UPDATE OF "franchise_id", "deleted_at" ON "drivers"
  FOR EACH ROW WHEN (OLD.franchise_id IS DISTINCT FROM NEW.franchise_id
    OR (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL))
  EXECUTE FUNCTION compliance_counts_on_driver_move();
--> statement-breakpoint
CREATE TRIGGER "compliance_counts_driver_delete" BEFORE DELETE ON "drivers"
  FOR EACH ROW EXECUTE FUNCTION compliance_counts_on_driver_delete();
--> statement-breakpoint
-- The counts of the documents and checks already stored.
SELECT compliance_counts_rebuild();
