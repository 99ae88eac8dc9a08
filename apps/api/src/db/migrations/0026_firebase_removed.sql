ALTER TABLE "customers" ADD COLUMN "firebase_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "trips" ADD COLUMN "firebase_removed_at" timestamp with time zone;