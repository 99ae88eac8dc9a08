CREATE TABLE "driver_mandatory_documents" (
	"driver_id" uuid PRIMARY KEY NOT NULL,
	"documents" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "driver_mandatory_documents" ADD CONSTRAINT "driver_mandatory_documents_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The documents a driver must hold, as the code's MANDATORY_DOCUMENTS lists them (a test holds the
-- two to each other).
CREATE FUNCTION "driver_mandatory_document_keys"() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array['aadharCard', 'driverLicence', 'rcCertificate', 'pollutionCertificate', 'fitnessCertificate', 'vehiclePermit']::text[]
$$;
--> statement-breakpoint
-- Each driver's mandatory documents, kept by the database itself whoever writes them (the console,
-- the apps, an import), so that a driver list reads one row per driver instead of aggregating each
-- driver's documents. The drivers a statement touched are recomputed whole from their documents.
-- Two transactions changing one driver's documents at once take turns on the driver's row (locked
-- in the order of ids, as the console's own document writes lock it first), and each then reads
-- its documents afresh (a new snapshot per statement): the second to finish writes what both
-- changed, never what only one of them saw. A row lock takes no room in the lock table, which one
-- advisory lock per driver ran out of in a transaction touching 15,000 drivers (an import).
CREATE FUNCTION "driver_mandatory_documents_refresh"(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM drivers WHERE id = any(ids) ORDER BY id FOR NO KEY UPDATE;
  DELETE FROM driver_mandatory_documents m
  WHERE m.driver_id = any(ids) AND NOT EXISTS (
    SELECT 1 FROM driver_documents d
    WHERE d.driver_id = m.driver_id AND d.key = any(driver_mandatory_document_keys()));
  INSERT INTO driver_mandatory_documents AS m (driver_id, documents)
  SELECT d.driver_id, json_agg(json_build_array(d.key, d.status, d.expires_on) ORDER BY d.key)
  FROM driver_documents d
  WHERE d.driver_id = any(ids) AND d.key = any(driver_mandatory_document_keys())
  GROUP BY d.driver_id
  ORDER BY d.driver_id
  ON CONFLICT (driver_id) DO UPDATE SET documents = excluded.documents;
END $$;
--> statement-breakpoint
CREATE FUNCTION "driver_mandatory_documents_on_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The transition tables are visible in this function only, not in one it calls.
  changes text := CASE TG_OP
    WHEN 'INSERT' THEN 'select t.driver_id, t.key from new_documents t'
    WHEN 'DELETE' THEN 'select t.driver_id, t.key from old_documents t'
    ELSE 'select t.driver_id, t.key from new_documents t union all select t.driver_id, t.key from old_documents t'
  END;
  changed uuid[];
BEGIN
  EXECUTE format(
    'select array_agg(distinct c.driver_id) from (%s) c where c.key = any(driver_mandatory_document_keys())',
    changes) INTO changed;
  IF changed IS NOT NULL THEN
    PERFORM driver_mandatory_documents_refresh(changed);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- DELETE, not TRUNCATE: a TRUNCATE that already takes this table along (drivers ... CASCADE) would
-- refuse to truncate it again from its trigger.
CREATE FUNCTION "driver_mandatory_documents_on_truncate"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM driver_mandatory_documents;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputed whole from the documents: a bulk load turns the triggers off and calls this once.
CREATE FUNCTION "driver_mandatory_documents_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM driver_mandatory_documents;
  INSERT INTO driver_mandatory_documents (driver_id, documents)
  SELECT d.driver_id, json_agg(json_build_array(d.key, d.status, d.expires_on) ORDER BY d.key)
  FROM driver_documents d
  WHERE d.key = any(driver_mandatory_document_keys())
  GROUP BY d.driver_id;
$$;
--> statement-breakpoint
CREATE TRIGGER "driver_mandatory_documents_insert" AFTER INSERT ON "driver_documents" REFERENCING NEW TABLE AS new_documents
  FOR EACH STATEMENT EXECUTE FUNCTION driver_mandatory_documents_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_mandatory_documents_update" AFTER UPDATE ON "driver_documents" REFERENCING OLD TABLE AS old_documents NEW TABLE AS new_documents
  FOR EACH STATEMENT EXECUTE FUNCTION driver_mandatory_documents_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_mandatory_documents_delete" AFTER DELETE ON "driver_documents" REFERENCING OLD TABLE AS old_documents
  FOR EACH STATEMENT EXECUTE FUNCTION driver_mandatory_documents_on_change();
--> statement-breakpoint
CREATE TRIGGER "driver_mandatory_documents_truncate" AFTER TRUNCATE ON "driver_documents"
  FOR EACH STATEMENT EXECUTE FUNCTION driver_mandatory_documents_on_truncate();
--> statement-breakpoint
-- The documents already stored.
SELECT driver_mandatory_documents_rebuild();
