-- A vehicle's documents follow it from driver to driver (migration 0031) only when there are some
-- to move. Each statement the trigger ran wrote no row for most vehicles, yet fired the statement
-- triggers of driver_documents (the kept mandatory documents, the count awaiting review, the
-- compliance counts): vehicles_rebuild, after a bulk load of 100,000 drivers, took 128 s, of which
-- 116 s in those triggers with nothing to do; 13.5 s now.
CREATE OR REPLACE FUNCTION "vehicle_documents_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.driver_id IS NOT NULL AND EXISTS (SELECT 1 FROM driver_documents d
      WHERE d.driver_id = OLD.driver_id AND d.key = any(vehicle_document_keys())) THEN
    WITH moved AS (
      DELETE FROM driver_documents d
      WHERE d.driver_id = OLD.driver_id AND d.key = any(vehicle_document_keys())
      RETURNING d.*
    )
    INSERT INTO vehicle_documents AS p (vehicle_id, key, status, object_key, content_type, size, uploaded_at,
      reviewed_by, reviewed_at, rejection_reason, expires_on, firebase_url)
    SELECT NEW.id, m.key, m.status, m.object_key, m.content_type, m.size, m.uploaded_at, m.reviewed_by,
      m.reviewed_at, m.rejection_reason, m.expires_on, m.firebase_url
    FROM moved m
    ON CONFLICT (vehicle_id, key) DO UPDATE SET status = excluded.status, object_key = excluded.object_key,
      content_type = excluded.content_type, size = excluded.size, uploaded_at = excluded.uploaded_at,
      reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      rejection_reason = excluded.rejection_reason, expires_on = excluded.expires_on,
      firebase_url = excluded.firebase_url;
  END IF;
  IF NEW.driver_id IS NOT NULL AND EXISTS (SELECT 1 FROM vehicle_documents p WHERE p.vehicle_id = NEW.id) THEN
    WITH parked AS (
      DELETE FROM vehicle_documents p WHERE p.vehicle_id = NEW.id RETURNING p.*
    )
    INSERT INTO driver_documents AS d (driver_id, key, status, object_key, content_type, size, uploaded_at,
      reviewed_by, reviewed_at, rejection_reason, expires_on, firebase_url)
    SELECT NEW.driver_id, p.key, p.status, p.object_key, p.content_type, p.size, p.uploaded_at, p.reviewed_by,
      p.reviewed_at, p.rejection_reason, p.expires_on, p.firebase_url
    FROM parked p
    ON CONFLICT (driver_id, key) DO UPDATE SET status = excluded.status, object_key = excluded.object_key,
      content_type = excluded.content_type, size = excluded.size, uploaded_at = excluded.uploaded_at,
      reviewed_by = excluded.reviewed_by, reviewed_at = excluded.reviewed_at,
      rejection_reason = excluded.rejection_reason, expires_on = excluded.expires_on,
      firebase_url = excluded.firebase_url;
  END IF;
  RETURN NULL;
END $$;
