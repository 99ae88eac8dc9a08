CREATE TABLE "list_counts" (
	"list" text PRIMARY KEY NOT NULL,
	"rows" integer NOT NULL
);
--> statement-breakpoint
-- The count of customers, kept by the database whoever writes them (the customer app, an import):
-- each statement adds the rows it inserted and takes away those it deleted, so that the
-- unsearched customer list shows an exact count without reading the table.
CREATE FUNCTION "customer_count_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format($sql$
    insert into list_counts as c (list, rows)
    select 'customers', %s
    on conflict (list) do update set rows = c.rows + excluded.rows
  $sql$, CASE TG_OP WHEN 'INSERT' THEN '(select count(*) from new_customers)'
                    ELSE '-(select count(*) from old_customers)' END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION "customer_count_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM list_counts WHERE list = 'customers';
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The count recomputed from the rows: a bulk load turns the triggers off and calls this once.
CREATE FUNCTION "customer_count_rebuild"() RETURNS void LANGUAGE sql AS $$
  INSERT INTO list_counts AS c (list, rows) SELECT 'customers', count(*) FROM customers
  ON CONFLICT (list) DO UPDATE SET rows = excluded.rows;
$$;
--> statement-breakpoint
CREATE TRIGGER "customer_count_insert" AFTER INSERT ON "customers" REFERENCING NEW TABLE AS new_customers
  FOR EACH STATEMENT EXECUTE FUNCTION customer_count_on_change();
--> statement-breakpoint
CREATE TRIGGER "customer_count_delete" AFTER DELETE ON "customers" REFERENCING OLD TABLE AS old_customers
  FOR EACH STATEMENT EXECUTE FUNCTION customer_count_on_change();
--> statement-breakpoint
CREATE TRIGGER "customer_count_truncate" AFTER TRUNCATE ON "customers"
  FOR EACH STATEMENT EXECUTE FUNCTION customer_count_on_truncate();
--> statement-breakpoint
-- The count of the customers already stored.
SELECT customer_count_rebuild();
