CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "driver_device_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"driver_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"label" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "drivers_franchise_idx";--> statement-breakpoint
ALTER TABLE "driver_device_tokens" ADD CONSTRAINT "driver_device_tokens_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "driver_device_tokens" ADD CONSTRAINT "driver_device_tokens_created_by_accounts_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "driver_device_tokens_hash_idx" ON "driver_device_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "driver_device_tokens_driver_idx" ON "driver_device_tokens" USING btree ("driver_id");--> statement-breakpoint
CREATE INDEX "drivers_franchise_name_idx" ON "drivers" USING btree ("franchise_id","name","id");--> statement-breakpoint
CREATE INDEX "drivers_name_idx" ON "drivers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "drivers_search_idx" ON "drivers" USING gin (lower("name" || ' ' || coalesce("email", '') || ' ' || coalesce("phone_number", '') || ' ' || coalesce("vehicle_number", '')) gin_trgm_ops);