CREATE TABLE "trip_feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"trip_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"feedback" text NOT NULL,
	"rating" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trip_feedback" ADD CONSTRAINT "trip_feedback_trip_id_trips_id_fk" FOREIGN KEY ("trip_id") REFERENCES "public"."trips"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_feedback" ADD CONSTRAINT "trip_feedback_author_id_accounts_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trip_feedback_trip_idx" ON "trip_feedback" USING btree ("trip_id","created_at");--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin (lower("name" || ' ' || coalesce("email", '') || ' ' || coalesce("phone_number", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "trips_status_created_idx" ON "trips" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trips_title_search_idx" ON "trips" USING gin (lower("title") gin_trgm_ops);