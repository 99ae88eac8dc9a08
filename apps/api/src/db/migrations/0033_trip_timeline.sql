ALTER TABLE "trips" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "cancelled_at" timestamp with time zone;--> statement-breakpoint
-- A trip's timeline: the time it reached each step, stamped as its status changes, by whoever
-- changes it (the apps' database through the link, staff, an import). A step already stamped keeps
-- its first time, and a writer that knows the time (a trip imported with its history) sets it
-- itself. A trip inserted past a step has no time for it: unknown, never guessed.
CREATE FUNCTION "trips_stamp_step"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status THEN
    CASE NEW.status
      WHEN 'assigned' THEN NEW.assigned_at := coalesce(NEW.assigned_at, now());
      WHEN 'started' THEN NEW.started_at := coalesce(NEW.started_at, now());
      WHEN 'completed' THEN NEW.finished_at := coalesce(NEW.finished_at, now());
      WHEN 'cancelled' THEN NEW.cancelled_at := coalesce(NEW.cancelled_at, now());
      ELSE NULL;
    END CASE;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "trips_stamp_step" BEFORE UPDATE OF "status" ON "trips"
  FOR EACH ROW EXECUTE FUNCTION "trips_stamp_step"();
