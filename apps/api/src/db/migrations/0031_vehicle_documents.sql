CREATE TABLE "vehicle_documents" (
	"vehicle_id" uuid NOT NULL,
	"key" text NOT NULL,
	"status" "document_status" DEFAULT 'not_submitted' NOT NULL,
	"object_key" text,
	"content_type" text,
	"size" integer,
	"uploaded_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"rejection_reason" text,
	"expires_on" date,
	"firebase_url" text,
	CONSTRAINT "vehicle_documents_vehicle_id_key_pk" PRIMARY KEY("vehicle_id","key")
);
--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_vehicle_id_vehicles_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_documents" ADD CONSTRAINT "vehicle_documents_reviewed_by_accounts_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The documents of the vehicle rather than of its driver, as the code's VEHICLE_DOCUMENT_KEYS lists
-- them (a test holds the two to each other).
CREATE FUNCTION "vehicle_document_keys"() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array['rcCertificate', 'fitnessCertificate', 'vehiclePermit', 'pollutionCertificate', 'vehicleInsurance']::text[]
$$;
--> statement-breakpoint
-- A vehicle's documents travel with it (decision 030). They are kept with the driver who drives it,
-- in driver_documents, where compliance, reviews, the queue and the reminders read them (and the
-- rows kept from them follow by their own triggers). The driver who leaves a vehicle leaves its
-- documents with it (parked in vehicle_documents), and the driver it is given to takes them over,
-- replacing those they held for no known vehicle. Whoever moves the vehicle: staff, the app's car
-- details, an import.
CREATE FUNCTION "vehicle_documents_follow"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.driver_id IS NOT NULL THEN
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
  IF NEW.driver_id IS NOT NULL THEN
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
--> statement-breakpoint
CREATE TRIGGER "vehicle_documents_follow" AFTER UPDATE OF "driver_id" ON "vehicles"
  FOR EACH ROW WHEN (OLD.driver_id IS DISTINCT FROM NEW.driver_id)
  EXECUTE FUNCTION vehicle_documents_follow();
--> statement-breakpoint
-- The vehicle's insurance, which the driver app uploads, is mandatory too (a vehicle may not carry
-- passengers uninsured).
CREATE OR REPLACE FUNCTION "driver_mandatory_document_keys"() RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array['aadharCard', 'driverLicence', 'rcCertificate', 'pollutionCertificate', 'fitnessCertificate', 'vehiclePermit', 'vehicleInsurance']::text[]
$$;
--> statement-breakpoint
SELECT driver_mandatory_documents_rebuild();
